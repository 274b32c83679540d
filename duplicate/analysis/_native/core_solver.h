/* The exact solver's shared declarations (core_solver.c: the search; core_solver_py.c:
 * its Python type). */
#ifndef GUANDAN_CORE_SOLVER_H
#define GUANDAN_CORE_SOLVER_H
#include "core_py.h"

/* a hand key, with two independent hashes of it made once (the table hashes positions by
 * them) */
typedef struct { uint64_t packed; cset rel; uint64_t ha, hb; } hkey;

/* a grouped play (64 bytes, one cache line): the hand it leaves, that hand's key's two
 * hashes (ka, kb), two independent hashes of the hand itself (lh1, lh2: the play cache and
 * the walkover cache look hands up by them), its beat signature, type, rank and size (its
 * cards are the hand less `left`: solver_play) */
typedef struct { cset left; uint64_t ka, kb, lh1, lh2; int32_t sig; uint8_t type, rank, n; } splay;
typedef struct { cset hand; int32_t sig; int used, n, nb; splay *v; } pentry;
/* a transposition table slot: a position's two independent hashes (64 + 32 bits kept;
 * a = 0 is an empty slot), its bounds and the child that last gave a cut (16 bytes, four
 * to a bucket of one cache line, the newest first) */
typedef struct { uint64_t a; uint32_t b; int8_t lo, hi; int16_t best; } tentry;
#define TT_WAYS 4
#ifndef WALK_DEPTH
#define WALK_DEPTH 4 /* a walk is at most WALK_DEPTH + 1 plays (6 measured: the same nodes) */
#endif

#define TT_BITS 20      /* the most slots the transposition table grows to */
#define TT_START_BITS 12
/* the near table: up to 2^16 slots (1 MB, it stays in the processor's cache; 4,096 at
 * first, doubled when half full) hold every position searched, the last four hashed to a
 * bucket; the transposition table proper only those with at least NEAR_CARDS cards in hand
 * (a probe of a 16 MB table costs more than searching again most of the positions with
 * fewer cards) */
#ifndef NEAR_CARDS
#define NEAR_CARDS 12
#endif
#define NEAR_BITS 16
#define PT_MAX (1u << 20)
#define WC_MAX (1u << 20) /* entries kept before the walkover cache is emptied */

/* the walkover cache: (hand, opponent, opponent) -> can the hand play out unbeaten, under
 * two independent 64-bit hashes of the three hands (a = 0: empty; the answer is b's bit 0) */
typedef struct { uint64_t a, b; } wentry;

typedef struct {
    PyObject_HEAD
    int level, dd;
    rules_t ru;
    pentry *pt;
    size_t pt_cap, pt_n;
    tentry *tt;
    size_t tt_cap, tt_n;
    tentry *near;
    size_t near_cap, near_n;
    wentry *wc;
    size_t wc_cap, wc_n;
    long long nodes, lookups, hits, node_limit, next_check;
    double deadline;
    PyThread_type_lock lock; /* held around every use of the tables (value, grouped, clear) */
    int stop; /* 1 node budget, 2 time budget, 3 out of memory */
} NSolver;

/* the four hands, their keys' hashes (ka, kb) and the hands' own hashes (h1, h2) */
typedef struct { cset h[4]; uint64_t ka[4], kb[4], h1[4], h2[4]; int cards; } hands_t;

#define INF 99

hkey solver_hand_key(cset hand, int level);
/* the hands' keys and hashes of hs->h */
void solver_hands(hands_t *hs, int level);
int32_t solver_beat_sig(const play_t *p);
double solver_now(void);
/* a zeroed table of n items (free() frees it); huge pages for big ones */
void *solver_table(size_t n, size_t size);
void solver_pt_clear(NSolver *s);
/* the grouped, ordered plays of `hand` against `tb` (a new array the caller frees) */
int solver_group_plays(NSolver *s, cset hand, const play_t *tb, splay **out, int *nb);
play_t solver_play(cset hand, const splay *p);
/* is the value for N-S at least t? 1 / 0, or -1 when a budget stopped the search */
int solver_ge(NSolver *s, const hands_t *hs, int turn, const play_t *tb, int32_t sig, int last, int passes,
              int first, int out, int t);
#endif

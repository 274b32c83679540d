/* The deal's state machine (engine/deal.py's Deal without its history objects). */
#ifndef GUANDAN_CORE_DEAL_H
#define GUANDAN_CORE_DEAL_H
#include "core.h"

typedef struct {
    cset hands[4];
    int counts[4];
    int level, turn, last, passes, trick_leader, nfinish, over;
    int finish[4];
    int reported[4]; /* action index of the 报牌 (10 cards or fewer), -1 before it */
    int has_tb;
    play_t tb;
    int nactions, ntricks;
    rules_t ru;
} deal_t;

typedef struct { int finish[4]; int levels; int double_down; } deal_result;

void deal_init(deal_t *d, const cset hands[4], int level, int leader, const rules_t *ru);
void deal_apply_play(deal_t *d, const play_t *p);
void deal_apply_pass(deal_t *d);
void deal_result_of(const deal_t *d, deal_result *r);

/* why an action is refused: 0 = legal */
enum { D_OK, D_OVER, D_LEAD_PASS, D_NO_CARDS, D_NOT_HELD, D_NOT_READING, D_NOT_BEATING,
       D_NO_COMBO, D_HALF_DECLARED, D_SHAPE, D_TURN };
/* check (and choose, when type < 0: RULES.md §5) the play of `cards` declared as
 * (type, rank); fills *p */
int deal_check_play(const deal_t *d, cset cards, int type, int rank, play_t *p);

/* a small fast generator (splitmix64) for playouts */
typedef struct { uint64_t s; } rng_t;
static inline uint64_t rng_next(rng_t *g) {
    uint64_t z = (g->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint32_t rng_below(rng_t *g, uint32_t n) {
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    for (;;) {
        uint64_t x = rng_next(g);
        if (x < limit) return (uint32_t)(x % n);
    }
}
void shuffle_hands(rng_t *g, cset hands[4]);

/* one random-play deal: every action uniform among the legal readings (and the pass when
 * following). With `log`, each action is recorded (pass: type 255) with its choice k of m.
 * Returns the number of actions, -1 out of memory. */
typedef struct { play_t play; int k, m; } logged;
int random_deal(deal_t *d, rng_t *g, plist *scratch, logged *log, int cap);
#endif

/* The native core's shared declarations: the packed card set, packed plays, the tables.
 *
 * A card set (cset) is three 64-bit words holding 15 rank fields, 5 ranks a word:
 * rank r (0..12 = 2..A) is the 12-bit field at bit 12*(r%5) of word r/5, 3 bits a suit
 * (S H C D from the low end), as engine.cards lays a rank out; the small and big jokers'
 * 3-bit counts sit at bits 36 and 39 of word 2. No 3-bit count straddles a word, so sets
 * add, subtract and test containment word-wide (bit 2 of every count is a guard bit).
 */
#ifndef GUANDAN_CORE_H
#define GUANDAN_CORE_H

#include <stdint.h>
#include <stddef.h>

typedef struct { uint64_t w[3]; } cset;

#include "core_consts.h" /* T_<TYPE>, N_TYPES, HAND_SIZE, REPORT_LIMIT: engine/constants.py */
enum { R_SB = 13, R_HR = 14 };

/* a play: type, record rank, cards */
typedef struct { cset cards; uint8_t type, rank, n; } play_t;

typedef struct { int jp; int bomb_max; int jiefeng_next; int plus4; } rules_t;

/* a growable list of plays */
typedef struct { play_t *v; size_t n, cap; int oom; } plist;

#define SB_SHIFT 36
#define HR_SHIFT 39

static inline unsigned cs_field(const cset *c, int r) {
    return (unsigned)(c->w[r / 5] >> (12 * (r % 5))) & 0xFFFu;
}
static inline void cs_add_field(cset *c, int r, uint64_t f) { c->w[r / 5] += f << (12 * (r % 5)); }
static inline int cs_sb(const cset *c) { return (int)(c->w[2] >> SB_SHIFT) & 7; }
static inline int cs_hr(const cset *c) { return (int)(c->w[2] >> HR_SHIFT) & 7; }
static inline cset cs_add(cset a, cset b) { cset r = {{a.w[0] + b.w[0], a.w[1] + b.w[1], a.w[2] + b.w[2]}}; return r; }
static inline cset cs_sub(cset a, cset b) { cset r = {{a.w[0] - b.w[0], a.w[1] - b.w[1], a.w[2] - b.w[2]}}; return r; }
static inline int cs_eq(cset a, cset b) { return a.w[0] == b.w[0] && a.w[1] == b.w[1] && a.w[2] == b.w[2]; }
static inline int cs_empty(cset a) { return !(a.w[0] | a.w[1] | a.w[2]); }
/* every card twice: the two packs a deal is dealt from */
static inline cset cs_two_packs(void) {
    cset c = {{0, 0, 0}};
    for (int r = 0; r < 13; r++) cs_add_field(&c, r, 0x492u); /* 2 of each suit */
    c.w[2] += (2ull << SB_SHIFT) + (2ull << HR_SHIFT);
    return c;
}

/* population count without relying on the POPCNT instruction (portable builds) */
static inline int pc64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
extern uint8_t POP13[8192];

extern const uint64_t CS_GUARD[3];
int cs_subset(cset part, cset whole);
int cs_size(cset c);
int cs_valid(cset c);
/* k wild hearts of `level` (k = 0..2) as a set */
extern cset WILDS[13][3];
static inline cset cs_wilds(int level, int k) { return WILDS[level][k]; }

/* tables (core_tables.c) */
extern uint8_t FIELD_COUNT[4096];
extern uint8_t FIELD_SUITS[4096];
extern int16_t FIELD_INDEX[4096];     /* valid field -> 0..80, else -1 */
/* options of a valid field for `need` cards: (natural sub-field, wilds used), fewest wilds
 * first; OPT_START[idx][need] .. OPT_START[idx][need+1] in OPT_SUB / OPT_U */
extern uint16_t OPT_START[81][12];
extern uint16_t OPT_SUB[81 * 11 * 81];
extern uint8_t OPT_U[81 * 11 * 81];
extern uint16_t FIRST_SUB[81][11];
extern uint8_t LEVEL_ORDER[13][13];
extern uint8_t LEVEL_VALUE[13][15];
/* sequence windows: lowest rank, mask of ranks, ranks */
typedef struct { int rank; unsigned mask; int ranks[5]; } window_t;
extern window_t WIN_STRAIGHT[10], WIN_THREE_PAIR[12], WIN_TWO_TRIPS[13];
void core_tables_init(void);
static inline int seq_position(int rank) { return rank == 12 ? -1 : rank; }

/* readings and plays (core_moves.c) */
int reading_keys(cset c, int level, const rules_t *ru, uint8_t out_t[], uint8_t out_r[]);
int32_t combo_power(int type, int rank, int n, int level);
int combo_beats(const play_t *a, const play_t *b, int level);
/* generate into `out`; first_only: one per reading. Returns 0, or -1 out of memory. */
int generate(cset hand, int level, const play_t *to_beat, const rules_t *ru, int first_only,
             plist *out);
void plist_free(plist *l);

#endif

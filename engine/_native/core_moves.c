/* Readings of a card set and legal plays of a hand: engine/reading.py's reading_keys and
 * engine/moves.py's generation, step for step and in the same order (RULES.md §2–4). */
#include <stdlib.h>
#include <string.h>
#include "core.h"

/* ---- card sets ------------------------------------------------------------------------ */

#define L20 0x1249249249249249ull /* bit 0 of 20 3-bit counts (60 bits, top 4 clear) */
static const uint64_t CS_LOW[3] = {L20 & 0x0FFFFFFFFFFFFFFFull, L20 & 0x0FFFFFFFFFFFFFFFull,
                                   L20 & 0x000003FFFFFFFFFFull};
const uint64_t CS_GUARD[3] = {(L20 & 0x0FFFFFFFFFFFFFFFull) << 2,
                              (L20 & 0x0FFFFFFFFFFFFFFFull) << 2,
                              (L20 & 0x000003FFFFFFFFFFull) << 2};

int cs_subset(cset part, cset whole) {
    for (int i = 0; i < 3; i++)
        if ((((whole.w[i] | CS_GUARD[i]) - part.w[i]) & CS_GUARD[i]) != CS_GUARD[i]) return 0;
    return 1;
}

int cs_size(cset c) {
    int n = 0;
    for (int i = 0; i < 3; i++)
        n += pc64(c.w[i] & CS_LOW[i]) + 2 * pc64(c.w[i] & (CS_LOW[i] << 1)) + 4 * pc64(c.w[i] & CS_GUARD[i]);
    return n;
}

int cs_valid(cset c) {
    for (int i = 0; i < 3; i++) {
        uint64_t x = c.w[i];
        if (x & ~(CS_LOW[i] * 7)) return 0;
        if (x & CS_GUARD[i]) return 0;
        if (x & CS_LOW[i] & (x >> 1)) return 0;
    }
    return 1;
}


/* ---- readings ------------------------------------------------------------------------- */

static inline int low_bit(unsigned m) { return __builtin_ctz(m); }
static inline int high_bit(unsigned m) { return 31 - __builtin_clz(m); }

int reading_keys(cset c, int level, const rules_t *ru, uint8_t ot[], uint8_t orr[]) {
    int n = cs_size(c), k = 0;
    if (n == 0 || n > 10) return 0;
    unsigned fields[13];
    for (int r = 0; r < 13; r++) fields[r] = cs_field(&c, r);
    int w = (int)(fields[level] >> 3) & 7;
    fields[level] -= (unsigned)w << 3;
    int sb = cs_sb(&c), hr = cs_hr(&c);
    unsigned mask = 0;
    int maxc = 0, counts[13];
    unsigned suits = 0;
    for (int r = 0; r < 13; r++) {
        counts[r] = FIELD_COUNT[fields[r]];
        if (fields[r]) {
            mask |= 1u << r;
            suits |= FIELD_SUITS[fields[r]];
            if (counts[r] > maxc) maxc = counts[r];
        }
    }
#define KEY(t, r) do { ot[k] = (uint8_t)(t); orr[k] = (uint8_t)(r); k++; } while (0)
    if (sb || hr) {
        int nj = sb + hr;
        if (nj == n) {
            if (n == 1) KEY(T_SINGLE, sb ? R_SB : R_HR);
            else if (n == 2 && sb != 1) KEY(T_PAIR, sb ? R_SB : R_HR);
            else if (n == 4 && sb == 2 && hr == 2) KEY(T_FOUR_KINGS, R_SB);
            return k;
        }
        if (n == 5 && nj == 2 && sb != 1 && ru->jp && mask && !(mask & (mask - 1)))
            KEY(T_THREE_WITH_TWO, low_bit(mask));
        return k;
    }
    if (!mask) {
        KEY(n == 1 ? T_SINGLE : T_PAIR, level);
        return k;
    }
    int one_rank = !(mask & (mask - 1));
    if (one_rank) {
        int r = low_bit(mask);
        if (n == 1) { KEY(T_SINGLE, r); return k; }
        if (n == 2) { KEY(T_PAIR, r); return k; }
        if (n == 3) { KEY(T_TRIPS, r); return k; }
    }
    if (n == 5) {
        if (one_rank) {
            int r = low_bit(mask);
            if (counts[r] == 3) KEY(T_THREE_WITH_TWO, r);
        } else if (POP13[mask] == 2) {
            int a = low_bit(mask), b = high_bit(mask);
            if (a == level) { int t = a; a = b; b = t; }
            if (counts[a] <= 3 && counts[b] <= 2) KEY(T_THREE_WITH_TWO, a);
            if (counts[b] <= 3 && counts[a] <= 2) KEY(T_THREE_WITH_TWO, b);
        }
        if (maxc == 1) {
            int flush = !(suits & (suits - 1));
            int first = k;
            for (int i = 0; i < 10; i++)
                if (!(mask & ~WIN_STRAIGHT[i].mask)) KEY(T_STRAIGHT, WIN_STRAIGHT[i].rank);
            if (flush) {
                int last = k;
                for (int i = first; i < last; i++) KEY(T_STRAIGHT_FLUSH, orr[i]);
            }
        }
    } else if (n == 6) {
        if (maxc <= 2)
            for (int i = 0; i < 12; i++)
                if (!(mask & ~WIN_THREE_PAIR[i].mask)) KEY(T_THREE_PAIR, WIN_THREE_PAIR[i].rank);
        if (maxc <= 3)
            for (int i = 0; i < 13; i++)
                if (!(mask & ~WIN_TWO_TRIPS[i].mask)) KEY(T_TWO_TRIPS, WIN_TWO_TRIPS[i].rank);
    }
    if (one_rank && n >= 4 && n <= ru->bomb_max) KEY(T_BOMB, low_bit(mask));
#undef KEY
    return k;
}

/* Combo.power as one int: (a, b, c) -> a<<16 | b<<8 | c+1 (c may be -1) */
int32_t combo_power(int t, int rank, int n, int level) {
    if (t == T_FOUR_KINGS) return (4 << 16) | 1;
    if (t == T_BOMB) return ((n >= 6 ? 3 : 1) << 16) | (n << 8) | (LEVEL_VALUE[level][rank] + 1);
    if (t == T_STRAIGHT_FLUSH) return (2 << 16) | (seq_position(rank) + 1);
    if (t == T_STRAIGHT || t == T_THREE_PAIR || t == T_TWO_TRIPS)
        return (t << 8) | (seq_position(rank) + 1);
    return (t << 8) | (LEVEL_VALUE[level][rank] + 1);
}

int combo_beats(const play_t *a, const play_t *b, int level) {
    int ab = a->type >= T_STRAIGHT_FLUSH, bb = b->type >= T_STRAIGHT_FLUSH;
    if (ab) {
        if (!bb) return 1;
        return combo_power(a->type, a->rank, a->n, level) > combo_power(b->type, b->rank, b->n, level);
    }
    if (bb || a->type != b->type) return 0;
    return (combo_power(a->type, a->rank, a->n, level) & 0xFF) >
           (combo_power(b->type, b->rank, b->n, level) & 0xFF);
}

/* ---- generation ------------------------------------------------------------------------ */

void plist_free(plist *l) {
    free(l->v);
    l->v = NULL;
    l->n = l->cap = 0;
}

static inline void push(plist *l, int t, int r, int n, cset c) {
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        play_t *v = realloc(l->v, cap * sizeof(play_t));
        if (!v) { l->oom = 1; return; }
        l->v = v;
        l->cap = cap;
    }
    play_t *p = &l->v[l->n++];
    p->cards = c;
    p->type = (uint8_t)t;
    p->rank = (uint8_t)r;
    p->n = (uint8_t)n;
}

typedef struct {
    int level, w, sb, hr;
    cset wx[3]; /* 0, 1 and 2 wild hearts */
    unsigned fields[13];
    int idx[13];
    int counts[13];
    unsigned suit_masks[4]; /* per suit S H C D, the ranks with a natural card of it */
    const uint8_t *lv;
    const rules_t *ru;
} hand_t;

static void hand_init(hand_t *h, cset hand, int level, const rules_t *ru) {
    h->level = level;
    h->ru = ru;
    h->lv = LEVEL_VALUE[level];
    for (int r = 0; r < 13; r++) h->fields[r] = cs_field(&hand, r);
    h->w = (int)(h->fields[level] >> 3) & 7;
    h->fields[level] -= (unsigned)h->w << 3;
    unsigned m0 = 0, m1 = 0, m2 = 0, m3 = 0;
    for (int r = 0; r < 13; r++) {
        unsigned f = h->fields[r], fs = FIELD_SUITS[f];
        h->counts[r] = FIELD_COUNT[f];
        h->idx[r] = FIELD_INDEX[f];
        m0 |= (fs & 1u) << r;
        m1 |= ((fs >> 1) & 1u) << r;
        m2 |= ((fs >> 2) & 1u) << r;
        m3 |= ((fs >> 3) & 1u) << r;
    }
    h->suit_masks[0] = m0;
    h->suit_masks[1] = m1;
    h->suit_masks[2] = m2;
    h->suit_masks[3] = m3;
    h->sb = cs_sb(&hand);
    h->hr = cs_hr(&hand);
    for (int k = 0; k < 3; k++) h->wx[k] = cs_wilds(level, k);
}

/* the options of rank r for `need` cards with at most w wilds: [*lo, *hi) in the slab */
static inline const uint16_t *opts(const hand_t *h, int r, int need, int *count, const uint8_t **us) {
    int idx = h->idx[r];
    size_t base = (size_t)idx * 11 * 81;
    int lo = OPT_START[idx][need], hi = OPT_START[idx][need + 1];
    int n = hi - lo;
    const uint8_t *u = OPT_U + base + lo;
    while (n > 0 && u[n - 1] > h->w) n--;
    *count = n;
    *us = u;
    return OPT_SUB + base + lo;
}

static inline cset at_rank(const hand_t *h, int r, unsigned sub, int u) {
    cset c = h->wx[u];
    cs_add_field(&c, r, sub);
    return c;
}

static inline unsigned first_sub(const hand_t *h, int r, int need) { return FIRST_SUB[h->idx[r]][need]; }

static void groups(const hand_t *h, int t, int need, int floor, int first_only, plist *out) {
    const uint8_t *lv = h->lv;
    for (int i = 0; i < 13; i++) {
        int r = LEVEL_ORDER[h->level][i];
        if (lv[r] <= floor) continue;
        if (first_only) {
            int c = h->counts[r];
            if (c >= need) push(out, t, r, need, at_rank(h, r, first_sub(h, r, need), 0));
            else if (c && need - c <= h->w) push(out, t, r, need, at_rank(h, r, h->fields[r], need - c));
            else if (!c && r == h->level && need <= h->w) push(out, t, r, need, h->wx[need]);
        } else {
            int n;
            const uint8_t *u;
            const uint16_t *s = opts(h, r, need, &n, &u);
            if (n && r != h->level && u[n - 1] == need) n--;
            for (int j = 0; j < n; j++) push(out, t, r, need, at_rank(h, r, s[j], u[j]));
        }
    }
    cset c = {{0, 0, 0}};
    if (t == T_SINGLE) {
        if (h->sb && floor < lv[R_SB]) { c.w[2] = 1ull << SB_SHIFT; push(out, t, R_SB, 1, c); }
        if (h->hr && floor < lv[R_HR]) { c.w[2] = 1ull << HR_SHIFT; push(out, t, R_HR, 1, c); }
    } else if (t == T_PAIR) {
        if (h->sb == 2 && floor < lv[R_SB]) { c.w[2] = 2ull << SB_SHIFT; push(out, t, R_SB, 2, c); }
        if (h->hr == 2 && floor < lv[R_HR]) { c.w[2] = 2ull << HR_SHIFT; push(out, t, R_HR, 2, c); }
    }
}

typedef struct { int r; int u; cset c; } pair_src;

static int pair_sources(const hand_t *h, pair_src *ps) {
    int k = 0;
    /* stable order by (wilds used, level value): no-wild pairs in level order, joker pairs,
     * one-wild pairs in level order, then the pair of two wilds (any rank: r = -1) */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 13; i++) {
            int r = LEVEL_ORDER[h->level][i], n;
            const uint8_t *u;
            const uint16_t *s = opts(h, r, 2, &n, &u);
            for (int j = 0; j < n; j++)
                if (u[j] == pass) { ps[k].r = r; ps[k].u = pass; ps[k].c = at_rank(h, r, s[j], pass); k++; }
        }
        if (pass == 0 && h->ru->jp) {
            cset c = {{0, 0, 0}};
            if (h->sb == 2) { c.w[2] = 2ull << SB_SHIFT; ps[k].r = R_SB; ps[k].u = 0; ps[k].c = c; k++; }
            if (h->hr == 2) { c.w[2] = 2ull << HR_SHIFT; ps[k].r = R_HR; ps[k].u = 0; ps[k].c = c; k++; }
        }
    }
    if (h->w == 2) { ps[k].r = -1; ps[k].u = 2; ps[k].c = h->wx[2]; k++; }
    return k;
}

/* first_only: the first pair source of each rank and wild count is the only one that can
 * be chosen (sources of one rank and count come together), so the list is short */
static int first_pair_sources(const hand_t *h, pair_src *ps) {
    int k = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 13; i++) {
            int r = LEVEL_ORDER[h->level][i], c = h->counts[r];
            if (pass == 0 && c >= 2) { ps[k].r = r; ps[k].u = 0; ps[k].c = at_rank(h, r, first_sub(h, r, 2), 0); k++; }
            if (pass == 1 && c >= 1 && h->w >= 1) { ps[k].r = r; ps[k].u = 1; ps[k].c = at_rank(h, r, first_sub(h, r, 1), 1); k++; }
        }
        if (pass == 0 && h->ru->jp) {
            cset c = {{0, 0, 0}};
            if (h->sb == 2) { c.w[2] = 2ull << SB_SHIFT; ps[k].r = R_SB; ps[k].u = 0; ps[k].c = c; k++; }
            if (h->hr == 2) { c.w[2] = 2ull << HR_SHIFT; ps[k].r = R_HR; ps[k].u = 0; ps[k].c = c; k++; }
        }
    }
    if (h->w == 2) { ps[k].r = -1; ps[k].u = 2; ps[k].c = h->wx[2]; k++; }
    return k;
}

static void three_with_two(const hand_t *h, int floor, int first_only, plist *out) {
    pair_src ps[13 * 16 + 4];
    int np = -1;
    for (int i = 0; i < 13; i++) {
        int t = LEVEL_ORDER[h->level][i], n;
        if (h->lv[t] <= floor) continue;
        if (first_only) {
            int c = h->counts[t];
            if (!c || c + h->w < 3) continue;
            if (np < 0) np = first_pair_sources(h, ps);
            int ut = c >= 3 ? 0 : 3 - c, left = h->w - ut;
            for (int p = 0; p < np; p++)
                if (ps[p].u <= left && ps[p].r != t) {
                    push(out, T_THREE_WITH_TWO, t, 5, cs_add(at_rank(h, t, first_sub(h, t, 3), ut), ps[p].c));
                    break;
                }
            continue;
        }
        const uint8_t *u;
        const uint16_t *s = opts(h, t, 3, &n, &u);
        if (!n) continue;
        if (np < 0) np = pair_sources(h, ps);
        for (int j = 0; j < n; j++) {
            int left = h->w - u[j];
            cset tc = at_rank(h, t, s[j], u[j]);
            for (int p = 0; p < np; p++)
                if (ps[p].u <= left && ps[p].r != t) push(out, T_THREE_WITH_TWO, t, 5, cs_add(tc, ps[p].c));
        }
    }
}

/* one rank's options as sets, for the products below */
typedef struct { int n; uint8_t u[81]; cset c[81]; } rank_opts;

/* the product of the ranks' options, first rank most significant, wilds <= w (options come
 * fewest wilds first, so the first that overdraws ends the loop) */
static void seq_product(const hand_t *h, int t, int rank, int ncards, const rank_opts *ro, int len,
                        int i, cset acc, int used, plist *out) {
    const rank_opts *o = &ro[i];
    for (int j = 0; j < o->n; j++) {
        int u2 = used + o->u[j];
        if (u2 > h->w) break;
        cset c = cs_add(acc, o->c[j]);
        if (i + 1 == len) push(out, t, rank, ncards, cs_add(c, h->wx[u2]));
        else seq_product(h, t, rank, ncards, ro, len, i + 1, c, u2, out);
    }
}

static void sequences(const hand_t *h, int t, int need, const window_t *wins, int nwin, int len,
                      int floor, int first_only, plist *out) {
    for (int i = 0; i < nwin; i++) {
        const window_t *wd = &wins[i];
        if (seq_position(wd->rank) <= floor) continue;
        int missing = 0;
        for (int k = 0; k < len; k++) {
            int c = h->counts[wd->ranks[k]];
            if (c < need) missing += need - c;
        }
        if (missing > h->w) continue;
        if (first_only) {
            cset c = h->wx[missing];
            for (int k = 0; k < len; k++) cs_add_field(&c, wd->ranks[k], first_sub(h, wd->ranks[k], need));
            push(out, t, wd->rank, need * len, c);
            continue;
        }
        rank_opts ro[5];
        for (int k = 0; k < len; k++) {
            int r = wd->ranks[k], n;
            const uint8_t *u;
            const uint16_t *sub = opts(h, r, need, &n, &u);
            ro[k].n = n;
            for (int j = 0; j < n; j++) {
                ro[k].u[j] = u[j];
                cset c = {{0, 0, 0}};
                cs_add_field(&c, r, sub[j]);
                ro[k].c[j] = c;
            }
        }
        cset z = {{0, 0, 0}};
        seq_product(h, t, wd->rank, need * len, ro, len, 0, z, 0, out);
    }
}

/* straight flush cards: the last rank's choice most significant, natural before wild */
static void sf_product(const hand_t *h, int rank, const int *ranks, unsigned have, int s, int i,
                       cset acc, int used, plist *out) {
    if (i < 0) {
        push(out, T_STRAIGHT_FLUSH, rank, 5, cs_add(acc, h->wx[used]));
        return;
    }
    int r = ranks[i];
    if ((have >> r) & 1) {
        cset c = acc;
        cs_add_field(&c, r, 1u << (3 * s));
        sf_product(h, rank, ranks, have, s, i - 1, c, used, out);
    }
    if (used < h->w) sf_product(h, rank, ranks, have, s, i - 1, acc, used + 1, out);
}

static void straight_flushes(const hand_t *h, int floor, int first_only, plist *out) {
    const unsigned *masks = h->suit_masks;
    unsigned all = masks[0] | masks[1] | masks[2] | masks[3];
    for (int i = 0; i < 10; i++) {
        const window_t *wd = &WIN_STRAIGHT[i];
        if (seq_position(wd->rank) <= floor) continue;
        if (5 - POP13[all & wd->mask] > h->w) continue; /* no suit can fill this window */
        int best_missing = -1, best_s = 0;
        unsigned best_have = 0;
        for (int s = 0; s < 4; s++) {
            unsigned have = masks[s] & wd->mask;
            int missing = 5 - POP13[have];
            if (missing > h->w) continue;
            if (first_only) {
                if (best_missing < 0 || missing < best_missing) {
                    best_missing = missing; best_s = s; best_have = have;
                }
                continue;
            }
            cset z = {{0, 0, 0}};
            /* a full-order product: reproduces the Python list construction */
            sf_product(h, wd->rank, wd->ranks, have, s, 4, z, 0, out);
        }
        if (best_missing >= 0) {
            cset c = h->wx[best_missing];
            for (int k = 0; k < 5; k++)
                if ((best_have >> wd->ranks[k]) & 1) cs_add_field(&c, wd->ranks[k], 1u << (3 * best_s));
            push(out, T_STRAIGHT_FLUSH, wd->rank, 5, c);
        }
    }
}

static void bombs(const hand_t *h, int32_t floor, int first_only, plist *out) {
    int cand[13], nc = 0, top = 0;
    for (int i = 0; i < 13; i++) { /* ranks that can make a bomb at all, in level order */
        int r = LEVEL_ORDER[h->level][i], c = h->counts[r];
        if (c && c + h->w >= 4) {
            cand[nc++] = r;
            if (c + h->w > top) top = c + h->w;
        }
    }
    if (top > h->ru->bomb_max) top = h->ru->bomb_max;
    for (int n = 4; n <= top; n++)
        for (int i = 0; i < nc; i++) {
            int r = cand[i], c = h->counts[r];
            if (c + h->w < n || combo_power(T_BOMB, r, n, h->level) <= floor) continue;
            if (first_only) {
                push(out, T_BOMB, r, n, at_rank(h, r, first_sub(h, r, n), n - c > 0 ? n - c : 0));
                continue;
            }
            int k;
            const uint8_t *u;
            const uint16_t *s = opts(h, r, n, &k, &u);
            for (int j = 0; j < k; j++) push(out, T_BOMB, r, n, at_rank(h, r, s[j], u[j]));
        }
}

int generate(cset hand, int level, const play_t *tb, const rules_t *ru, int first_only, plist *out) {
    hand_t h;
    hand_init(&h, hand, level, ru);
    int32_t bomb_floor = -1;
    int sf_floor = -2;
    if (tb) {
        if (tb->type == T_FOUR_KINGS) return out->oom ? -1 : 0;
        if (tb->type >= T_STRAIGHT_FLUSH) {
            bomb_floor = combo_power(tb->type, tb->rank, tb->n, level);
            int a = bomb_floor >> 16;
            if (a > 2) sf_floor = 99;
            else if (a == 2) sf_floor = (bomb_floor & 0xFF) - 1;
        } else {
            int t = tb->type;
            if (t <= T_TRIPS) groups(&h, t, t + 1, h.lv[tb->rank], first_only, out);
            else if (t == T_THREE_WITH_TWO) three_with_two(&h, h.lv[tb->rank], first_only, out);
            else if (t == T_THREE_PAIR) sequences(&h, t, 2, WIN_THREE_PAIR, 12, 3, seq_position(tb->rank), first_only, out);
            else if (t == T_TWO_TRIPS) sequences(&h, t, 3, WIN_TWO_TRIPS, 13, 2, seq_position(tb->rank), first_only, out);
            else if (t == T_STRAIGHT) sequences(&h, t, 1, WIN_STRAIGHT, 10, 5, seq_position(tb->rank), first_only, out);
        }
    } else {
        for (int t = T_SINGLE; t <= T_TRIPS; t++) groups(&h, t, t + 1, -1, first_only, out);
        three_with_two(&h, -1, first_only, out);
        sequences(&h, T_THREE_PAIR, 2, WIN_THREE_PAIR, 12, 3, -2, first_only, out);
        sequences(&h, T_TWO_TRIPS, 3, WIN_TWO_TRIPS, 13, 2, -2, first_only, out);
        sequences(&h, T_STRAIGHT, 1, WIN_STRAIGHT, 10, 5, -2, first_only, out);
    }
    straight_flushes(&h, sf_floor, first_only, out);
    bombs(&h, bomb_floor, first_only, out);
    if (h.sb == 2 && h.hr == 2) {
        cset c = {{0, 0, (2ull << SB_SHIFT) | (2ull << HR_SHIFT)}};
        push(out, T_FOUR_KINGS, R_SB, 4, c);
    }
    return out->oom ? -1 : 0;
}

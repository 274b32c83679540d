/* The exact solver's search (analysis/solver.py): an AND/OR null-window search with a
 * transposition table of bounds, plays grouped by the hand key they leave
 * (analysis/state.py, analysis/moves.py), bisecting the six values a deal can have. */
#include "core_solver.h" /* Python.h first: it sets the POSIX feature macros (clock_gettime) */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

static uint64_t mix(uint64_t h, uint64_t x);
static uint64_t cs_hash(cset c);
static uint64_t cs_hash2(cset c);

static hkey hashed(hkey k) {
    k.ha = mix(mix(k.packed, 0x243F6A8885A308D3ull), cs_hash(k.rel));
    k.hb = mix(mix(k.packed, 0x13198A2E03707344ull), mix(cs_hash(k.rel), 0xA4093822299F31D0ull));
    return k;
}

static int hk_eq(const hkey *a, const hkey *b) { return a->packed == b->packed && cs_eq(a->rel, b->rel); }

/* analysis.state.HandKeys._key: per-rank counts, wilds, jokers, and the natural cards whose
 * suit can still matter to a straight flush */
hkey solver_hand_key(cset hand, int level) {
    hkey k = {0, {{0, 0, 0}}, 0, 0};
    unsigned fields[13];
    for (int r = 0; r < 13; r++) fields[r] = cs_field(&hand, r);
    int w = (int)(fields[level] >> 3) & 7;
    fields[level] -= (unsigned)w << 3;
    int total = w;
    for (int r = 0; r < 13; r++) {
        int c = FIELD_COUNT[fields[r]];
        total += c;
        k.packed |= (uint64_t)c << (4 * r);
    }
    k.packed |= ((uint64_t)w << 52) | ((uint64_t)cs_sb(&hand) << 55) | ((uint64_t)cs_hr(&hand) << 58);
    if (total < 5) return hashed(k);
    for (int s = 0; s < 4; s++) {
        unsigned mask = 0;
        for (int r = 0; r < 13; r++)
            if ((fields[r] >> (3 * s)) & 7) mask |= 1u << r;
        if (!mask) continue;
        unsigned keep = 0;
        for (int i = 0; i < 10; i++) {
            unsigned have = mask & WIN_STRAIGHT[i].mask;
            if (have && POP13[have] + w >= 5) keep |= have;
        }
        for (int r = 0; r < 13; r++)
            if ((keep >> r) & 1) cs_add_field(&k.rel, r, (uint64_t)(((fields[r] >> (3 * s)) & 7) << (3 * s)));
    }
    return hashed(k);
}

int32_t solver_beat_sig(const play_t *p) {
    if (!p) return -1;
    return (p->type << 8) | (p->rank << 4) | (p->type == T_BOMB ? p->n : 0);
}

/* combine x into h: add, then SplitMix64's finaliser (every output bit depends on every
 * input bit; a bare multiply would leave the low bits, the table slot, poorly mixed) */
static uint64_t mix(uint64_t h, uint64_t x) {
    uint64_t z = h + x + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static uint64_t cs_hash(cset c) { return mix(mix(mix(0, c.w[0]), c.w[1]), c.w[2]); }
static uint64_t cs_hash2(cset c) {
    return mix(mix(mix(0x452821E638D01377ull, c.w[2]), c.w[0]), c.w[1] ^ 0xBE5466CF34E90C6Cull);
}
static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

void solver_hands(hands_t *hs, int level) {
    hs->cards = 0;
    for (int i = 0; i < 4; i++) {
        hs->cards += cs_size(hs->h[i]);
        hkey k = solver_hand_key(hs->h[i], level);
        hs->ka[i] = k.ha;
        hs->kb[i] = k.hb;
        hs->h1[i] = cs_hash(hs->h[i]);
        hs->h2[i] = cs_hash2(hs->h[i]);
    }
}

/* a zeroed table aligned to a cache line (a bucket of the tables of bounds is one); from
 * 2 MB up aligned to 2 MB and marked for huge pages where the system has them (a table of
 * 16 MB probed at random otherwise costs a TLB miss a probe) */
void *solver_table(size_t n, size_t size) {
    size_t bytes = n * size, huge = (size_t)2 << 20;
    void *p = NULL;
    if (posix_memalign(&p, bytes < huge ? 64 : huge, bytes ? bytes : 64) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    if (bytes >= huge) madvise(p, bytes, MADV_HUGEPAGE);
#endif
    memset(p, 0, bytes);
    return p;
}

double solver_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void solver_pt_clear(NSolver *s) {
    if (!s->pt) return;
    for (size_t i = 0; i < s->pt_cap; i++)
        if (s->pt[i].used) free(s->pt[i].v);
    free(s->pt);
    s->pt = NULL;
    s->pt_cap = s->pt_n = 0;
}

/* the grouped, ordered plays of `hand` against `tb` (a new array, 64 bytes a play, the
 * caller frees) */
int solver_group_plays(NSolver *s, cset hand, const play_t *tb, splay **out, int *nb) {
    plist l = {0};
    if (generate(hand, s->level, tb, &s->ru, 0, &l) < 0) { plist_free(&l); return -1; }
    size_t m = l.n ? l.n : 1;
    splay *v = NULL;
    if (posix_memalign((void **)&v, 64, sizeof(splay) * m) != 0) v = NULL;
    hkey *keys = malloc(sizeof(hkey) * m);
    int64_t *ord = malloc(sizeof(int64_t) * m);
    size_t hcap = 16;
    while (hcap < 2 * l.n) hcap <<= 1;
    int32_t *set = malloc(sizeof(int32_t) * hcap);
    if (!v || !keys || !ord || !set) { free(v); free(keys); free(ord); free(set); plist_free(&l); return -1; }
    for (size_t i = 0; i < hcap; i++) set[i] = -1;
    int n = 0;
    for (size_t i = 0; i < l.n; i++) {
        const play_t *pl = &l.v[i];
        splay p;
        memset(&p, 0, sizeof p);
        p.left = cs_sub(hand, pl->cards);
        hkey key = solver_hand_key(p.left, s->level);
        p.sig = solver_beat_sig(pl);
        uint64_t h = mix(key.ha, (uint64_t)p.sig);
        size_t j = h & (hcap - 1);
        int dup = 0;
        while (set[j] >= 0) {
            if (v[set[j]].sig == p.sig && hk_eq(&keys[set[j]], &key)) { dup = 1; break; }
            j = (j + 1) & (hcap - 1);
        }
        if (dup) continue;
        set[j] = n;
        p.ka = key.ha;
        p.kb = key.hb;
        p.lh1 = cs_hash(p.left);
        p.lh2 = cs_hash2(p.left);
        p.type = pl->type;
        p.rank = pl->rank;
        p.n = pl->n;
        int64_t cat, x, y = 0;
        if (cs_empty(p.left)) { cat = 0; x = 0; }
        else if (p.type >= T_STRAIGHT_FLUSH) {
            int32_t pw = combo_power(p.type, p.rank, p.n, s->level);
            cat = 2;
            x = (pw >> 16) * 1000 + ((pw >> 8) & 0xFF) * 20 + ((pw & 0xFF) - 1);
        } else {
            cat = 1;
            x = -(int64_t)p.n;
            y = (combo_power(p.type, p.rank, p.n, s->level) & 0xFF) - 1;
        }
        ord[n] = (cat << 48) | ((x + 100000) << 16) | (y + 100);
        keys[n] = key;
        v[n++] = p;
    }
    /* stable insertion sort by order */
    for (int i = 1; i < n; i++) {
        splay x = v[i];
        int64_t kx = ord[i];
        int j = i - 1;
        while (j >= 0 && ord[j] > kx) { v[j + 1] = v[j]; ord[j + 1] = ord[j]; j--; }
        v[j + 1] = x;
        ord[j + 1] = kx;
    }
    int b = 0;
    while (b < n && v[b].type < T_STRAIGHT_FLUSH) b++;
    free(keys);
    free(ord);
    free(set);
    plist_free(&l);
    *out = v;
    *nb = b;
    return n;
}

/* the play of a grouped play made from `hand` */
play_t solver_play(cset hand, const splay *p) {
    play_t r;
    r.cards = cs_sub(hand, p->left);
    r.type = p->type;
    r.rank = p->rank;
    r.n = p->n;
    return r;
}

static inline size_t pt_slot(uint64_t hand_hash, int32_t sig, size_t cap) {
    return mix(hand_hash, (uint64_t)(uint32_t)sig) & (cap - 1);
}

static int pt_grow(NSolver *s) {
    size_t cap = s->pt_cap ? 2 * s->pt_cap : 1024;
    pentry *t = solver_table(cap, sizeof(pentry));
    if (!t) return -1;
    for (size_t i = 0; i < s->pt_cap; i++)
        if (s->pt[i].used) {
            size_t j = pt_slot(cs_hash(s->pt[i].hand), s->pt[i].sig, cap);
            while (t[j].used) j = (j + 1) & (cap - 1);
            t[j] = s->pt[i];
        }
    free(s->pt);
    s->pt = t;
    s->pt_cap = cap;
    return 0;
}

/* plays of a hand (`hh`: cs_hash(hand)): from the cache, or made (and cached while it has
 * room); *owned = 1 when the caller must free the array */
static int plays_of(NSolver *s, cset hand, uint64_t hh, const play_t *tb, int32_t sig, splay **v, int *nb,
                    int *owned) {
    *owned = 0;
    if (s->pt_n * 2 >= s->pt_cap && s->pt_cap < PT_MAX && pt_grow(s) < 0) return -1;
    size_t j = 0;
    if (s->pt_cap) {
        j = pt_slot(hh, sig, s->pt_cap);
        while (s->pt[j].used) {
            if (s->pt[j].sig == sig && cs_eq(s->pt[j].hand, hand)) {
                *v = s->pt[j].v;
                *nb = s->pt[j].nb;
                return s->pt[j].n;
            }
            j = (j + 1) & (s->pt_cap - 1);
        }
    }
    int n = solver_group_plays(s, hand, tb, v, nb);
    if (n < 0) return -1;
    if (s->pt_cap && s->pt_n * 2 < s->pt_cap) {
        pentry *e = &s->pt[j];
        e->used = 1;
        e->hand = hand;
        e->sig = sig;
        e->n = n;
        e->nb = *nb;
        e->v = *v;
        s->pt_n++;
    } else {
        *owned = 1;
    }
    return n;
}

static int next_seat(int out, int seat) {
    for (int i = 1; i <= 4; i++) {
        int t = (seat + i) & 3;
        if (!((out >> t) & 1)) return t;
    }
    return -1;
}

static int result_value(const NSolver *s, int first, int ender, int nout) {
    int levels = ((ender ^ first) & 1) ? 1 : nout == 2 ? s->dd : 2;
    return (first & 1) ? -levels : levels;
}


int solver_ge(NSolver *s, const hands_t *hs, int turn, const play_t *tb, int32_t sig, int last, int passes,
              int first, int out, int t);

static int pass_(NSolver *s, const hands_t *hs, int turn, const play_t *tb, int32_t sig, int last, int passes,
                 int first, int out, int t) {
    int p = passes + 1, nout = POP13[out];
    int holding = !cs_empty(hs->h[last]);
    int others = holding ? 3 - nout : 4 - nout;
    if (p >= others) {
        int leader = holding ? last : (s->ru.jiefeng_next ? next_seat(out, last) : last ^ 2);
        return solver_ge(s, hs, leader, NULL, -1, -1, 0, first, out, t);
    }
    return solver_ge(s, hs, next_seat(out, turn), tb, sig, last, p, first, out, t);
}

/* the walkover cache's two hashes of (hand, opponent, opponent), from the hands' own
 * hashes; a is never 0 (an empty slot), b's bit 0 is left for the answer */
static inline void wc_hash(uint64_t h1, uint64_t o11, uint64_t o21, uint64_t h2, uint64_t o12, uint64_t o22,
                           uint64_t *a, uint64_t *b) {
    *a = mix(h1 ^ rotl(o11, 21) ^ rotl(o21, 42), 0x3F84D5B5B5470917ull) | 1;
    *b = mix(h2 ^ rotl(o12, 19) ^ rotl(o22, 38), 0x9216D5D98979FB1Bull) & ~(uint64_t)1;
}
static inline size_t wc_slot(uint64_t a, size_t cap) { return (a >> 1) & (cap - 1); }

/* the walkover cache keeps every answer (as the Python dict does: an answer found under the
 * depth limit may differ from one found higher up, so forgetting answers changes the
 * search), up to WC_MAX entries, then starts again empty. Returns the answer's slot, which
 * is in use (*found) or free; NULL out of memory */
static wentry *wc_find(NSolver *s, uint64_t a, uint64_t b, int *found) {
    if (s->wc_n * 2 >= s->wc_cap) {
        size_t cap = s->wc_cap ? 2 * s->wc_cap : 4096;
        if (s->wc_n >= WC_MAX) cap = s->wc_cap; /* full: empty it */
        wentry *t = solver_table(cap, sizeof(wentry));
        if (!t) return NULL;
        if (s->wc_n < WC_MAX) {
            for (size_t i = 0; i < s->wc_cap; i++)
                if (s->wc[i].a) {
                    size_t j = wc_slot(s->wc[i].a, cap);
                    while (t[j].a) j = (j + 1) & (cap - 1);
                    t[j] = s->wc[i];
                }
        } else {
            s->wc_n = 0;
        }
        free(s->wc);
        s->wc = t;
        s->wc_cap = cap;
    }
    size_t j = wc_slot(a, s->wc_cap);
    while (s->wc[j].a) {
        if (s->wc[j].a == a && (s->wc[j].b & ~(uint64_t)1) == b) {
            *found = 1;
            return &s->wc[j];
        }
        j = (j + 1) & (s->wc_cap - 1);
    }
    *found = 0;
    return &s->wc[j];
}

static int wc_put(NSolver *s, uint64_t a, uint64_t b, int got) {
    int found;
    wentry *e = wc_find(s, a, b, &found);
    if (!e) return -1;
    if (!found) s->wc_n++;
    e->a = a;
    e->b = b | (uint64_t)(got != 0);
    return 0;
}

/* the opponents of a walk: their cards and hashes */
typedef struct { cset o[2]; uint64_t h1[2], h2[2]; } opps_t;

/* can either opponent of `op` beat the play `pp` (signature `sig`)? -1 out of memory */
static int opps_beat(NSolver *s, const opps_t *op, const play_t *pp, int32_t sig) {
    for (int o = 0; o < 2; o++) {
        if (cs_empty(op->o[o])) continue;
        splay *q;
        int qnb, qowned;
        int qn = plays_of(s, op->o[o], op->h1[o], pp, sig, &q, &qnb, &qowned);
        if (qn < 0) return -1;
        if (qowned) free(q);
        if (qn > 0) return 1;
    }
    return 0;
}

/* analysis.solver.Solver._walk: can `hand` play out in plays neither opponent can beat
 * (its partner passing), the last play being anything? -1 out of memory */
static int walk(NSolver *s, cset hand, uint64_t hh, const opps_t *op, int depth) {
    splay *plays;
    int nb, owned;
    int n = plays_of(s, hand, hh, NULL, -1, &plays, &nb, &owned);
    if (n < 0) return -1;
    int result = 0;
    if (n && cs_empty(plays[0].left)) {
        result = 1;
    } else if (depth < WALK_DEPTH) {
        int tried = 0;
        for (int i = 0; i < n && !result; i++) {
            const splay *p = &plays[i];
            if (p->type >= T_STRAIGHT_FLUSH && tried) break;
            play_t pp = solver_play(hand, p);
            int beaten = opps_beat(s, op, &pp, p->sig);
            if (beaten < 0) { if (owned) free(plays); return -1; }
            if (beaten) continue;
            tried++;
            int found, got;
            uint64_t a, b;
            wc_hash(p->lh1, op->h1[0], op->h1[1], p->lh2, op->h2[0], op->h2[1], &a, &b);
            wentry *e = wc_find(s, a, b, &found);
            if (!e) { if (owned) free(plays); return -1; }
            if (found) {
                got = (int)(e->b & 1);
            } else {
                got = walk(s, p->left, p->lh1, op, depth + 1);
                if (got < 0 || wc_put(s, a, b, got) < 0) { if (owned) free(plays); return -1; }
            }
            if (got) result = 1;
        }
    }
    if (owned) free(plays);
    return result;
}

static int walkover(NSolver *s, const hands_t *hs, int turn) {
    int s1 = (turn + 1) & 3, s2 = (turn + 3) & 3;
    uint64_t a, b;
    wc_hash(hs->h1[turn], hs->h1[s1], hs->h1[s2], hs->h2[turn], hs->h2[s1], hs->h2[s2], &a, &b);
    int found;
    wentry *e = wc_find(s, a, b, &found);
    if (!e) return -1;
    if (found) return (int)(e->b & 1);
    opps_t op = {{hs->h[s1], hs->h[s2]}, {hs->h1[s1], hs->h1[s2]}, {hs->h2[s1], hs->h2[s2]}};
    int got = walk(s, hs->h[turn], hs->h1[turn], &op, 0);
    if (got < 0 || wc_put(s, a, b, got) < 0) return -1;
    return got;
}

/* can `turn`, following, play one of its `plays` that neither opponent can beat and then
 * walk over (or go out with it)? Then it is the next player out. -1 out of memory */
static int follow_walk(NSolver *s, const hands_t *hs, int turn, const splay *plays, int n) {
    int s1 = (turn + 1) & 3, s2 = (turn + 3) & 3;
    opps_t op = {{hs->h[s1], hs->h[s2]}, {hs->h1[s1], hs->h1[s2]}, {hs->h2[s1], hs->h2[s2]}};
    int tried = 0;
    for (int i = 0; i < n; i++) {
        const splay *p = &plays[i];
        if (cs_empty(p->left)) return 1;
        if (p->type >= T_STRAIGHT_FLUSH && tried) break;
        play_t pp = solver_play(hs->h[turn], p);
        int beaten = opps_beat(s, &op, &pp, p->sig);
        if (beaten < 0) return -1;
        if (beaten) continue;
        tried++;
        int found, got;
        uint64_t a, b;
        wc_hash(p->lh1, op.h1[0], op.h1[1], p->lh2, op.h2[0], op.h2[1], &a, &b);
        wentry *e = wc_find(s, a, b, &found);
        if (!e) return -1;
        if (found) {
            got = (int)(e->b & 1);
        } else {
            got = walk(s, p->left, p->lh1, &op, 0);
            if (got < 0 || wc_put(s, a, b, got) < 0) return -1;
        }
        if (got) return 1;
    }
    return 0;
}

/* Solver._walkover_range: bounds on the value for N-S when `turn` is next out */
static void walkover_range(const NSolver *s, int turn, int first, int out, int *lo, int *hi) {
    int side, l, h;
    if (first < 0) { l = 1; h = s->dd; side = turn; }
    else if (((first ^ turn) & 1) == 0) { l = h = POP13[out] == 1 ? s->dd : 2; side = turn; }
    else if (POP13[out] == 1) { l = 1; h = 2; side = first; }
    else { l = h = 1; side = first; }
    if (side & 1) { *lo = -h; *hi = -l; }
    else { *lo = l; *hi = h; }
}

/* the position's two hashes: the hand keys' hashes, each seat's turned by its own amount
 * (x, y: hands_xy), and the rest of the position packed in one word (a is never 0, an
 * empty slot) */
static inline void hands_xy(const hands_t *hs, uint64_t *x, uint64_t *y) {
    *x = hs->ka[0] ^ rotl(hs->ka[1], 16) ^ rotl(hs->ka[2], 32) ^ rotl(hs->ka[3], 48);
    *y = hs->kb[0] ^ rotl(hs->kb[1], 11) ^ rotl(hs->kb[2], 27) ^ rotl(hs->kb[3], 45);
}
static inline void tt_hash(uint64_t x, uint64_t y, int32_t sig, int turn, int last, int passes, int first,
                           int out, uint64_t *a, uint32_t *b) {
    uint64_t rest = ((uint64_t)(uint32_t)sig << 32) | ((uint64_t)turn << 16) | ((uint64_t)(last + 1) << 12) |
                    ((uint64_t)passes << 8) | ((uint64_t)(first + 1) << 4) | (uint64_t)out;
    *a = mix(x, rest) | 1;
    *b = (uint32_t)(mix(y ^ 0x5851F42D4C957F2Dull, rest) >> 32);
}

/* the bucket of a position in a table of cap slots (TT_WAYS a bucket, one cache line) */
static inline tentry *tt_bucket(tentry *t, size_t cap, uint64_t a) {
    return &t[((a >> 1) & (cap / TT_WAYS - 1)) * TT_WAYS];
}
static inline tentry *tt_find(tentry *k, uint64_t a, uint32_t b) {
    for (int i = 0; i < TT_WAYS; i++)
        if (k[i].a == a && k[i].b == b) return &k[i];
    return NULL;
}
/* store e in its bucket: over the position's own slot, else first, the others moved down
 * one (the oldest dropped: a bucket keeps the last four positions stored in it); 1 when
 * the bucket had room */
static int tt_put(tentry *t, size_t cap, tentry e) {
    tentry *k = tt_bucket(t, cap, e.a);
    for (int i = 0; i < TT_WAYS; i++)
        if (k[i].a == e.a && k[i].b == e.b) { k[i] = e; return 0; }
    int fresh = !k[TT_WAYS - 1].a;
    memmove(&k[1], &k[0], sizeof(tentry) * (TT_WAYS - 1));
    k[0] = e;
    return fresh;
}

/* double a table of bounds (entries move by their first hash; on failure it stays) */
static void tt_grow(tentry **tt, size_t *tt_cap) {
    size_t cap = 2 * *tt_cap;
    tentry *t = solver_table(cap, sizeof(tentry)), *old = *tt;
    if (!t) return;
    for (size_t i = 0; i < *tt_cap; i++)
        if (old[i].a) tt_put(t, cap, old[i]);
    free(old);
    *tt = t;
    *tt_cap = cap;
}

static int budget(NSolver *s) {
    if (s->node_limit && s->nodes > s->node_limit) { s->stop = 1; return -1; }
    if (s->deadline > 0 && solver_now() > s->deadline) { s->stop = 2; return -1; }
    long long step = 1024;
    if (s->node_limit && s->node_limit - s->nodes + 1 < step) step = s->node_limit - s->nodes + 1;
    if (step < 1) step = 1;
    s->next_check = s->nodes + step;
    return 0;
}

int solver_ge(NSolver *s, const hands_t *hs, int turn, const play_t *tb, int32_t sig, int last, int passes,
              int first, int out, int t) {
    s->nodes++;
    if (s->nodes >= s->next_check && budget(s) < 0) return -1;
    if (first >= 0) {
        int top = POP13[out] == 1 ? s->dd : 2;
        if (first & 1) {
            if (t <= -top) return 1;
            if (t > -1) return 0;
        } else {
            if (t <= 1) return 1;
            if (t > top) return 0;
        }
    }
    /* the table's buckets are fetched from memory while the plays are looked up */
    uint64_t ha, hx, hy;
    uint32_t hb;
    hands_xy(hs, &hx, &hy);
    tt_hash(hx, hy, sig, turn, last, passes, first, out, &ha, &hb);
    int big = hs->cards >= NEAR_CARDS;
    tentry *nearb = tt_bucket(s->near, s->near_cap, ha), *bigb = big ? tt_bucket(s->tt, s->tt_cap, ha) : NULL;
    __builtin_prefetch(nearb);
    if (big) __builtin_prefetch(bigb);
    splay *plays;
    int nb, owned;
    int n = plays_of(s, hs->h[turn], hs->h1[turn], tb, sig, &plays, &nb, &owned);
    if (n < 0) { s->stop = 3; return -1; }
    if (n == 0) {
        if (owned) free(plays);
        return pass_(s, hs, turn, tb, sig, last, passes, first, out, t);
    }
    s->lookups++;
    int lo = -INF, hi = INF, best = -1;
    tentry *slot = tt_find(nearb, ha, hb);
    if (!slot && big) slot = tt_find(bigb, ha, hb);
    if (slot) {
        s->hits++;
        lo = slot->lo;
        hi = slot->hi;
        best = slot->best;
        if (lo >= t) { if (owned) free(plays); return 1; }
        if (hi < t) { if (owned) free(plays); return 0; }
    }
    int result = -2;
    if (!tb) {
        int w = walkover(s, hs, turn);
        if (w < 0) { if (owned) free(plays); s->stop = 3; return -1; }
        if (w) {
            int wlo, whi;
            walkover_range(s, turn, first, out, &wlo, &whi);
            if (wlo >= t) { if (lo < wlo) lo = wlo; result = 1; }
            else if (whi < t) { if (hi > whi) hi = whi; result = 0; }
        }
    }
    /* following: a play neither opponent can beat, then a walkover, makes it the next
     * player out (tried only when that would settle t) */
    if (tb && result == -2) {
        int wlo, whi;
        walkover_range(s, turn, first, out, &wlo, &whi);
        if (wlo >= t || whi < t) {
            int w = follow_walk(s, hs, turn, plays, n);
            if (w < 0) { if (owned) free(plays); s->stop = 3; return -1; }
            if (w) {
                if (wlo >= t) { if (lo < wlo) lo = wlo; result = 1; }
                else { if (hi > whi) hi = whi; result = 0; }
            }
        }
    }
    int maxing = !(turn & 1);
    int pass_at = tb ? nb : -1, total = tb ? n + 1 : n;
    int nxt = next_seat(out, turn);
    hands_t h2 = *hs;
    /* the children in search order: the last cut first, then the rest in their order */
    int has_best = best >= 0 && best < total;
    for (int k = 0; k < total && result == -2; k++) {
        int i = has_best ? (k == 0 ? best : k - 1 >= best ? k : k - 1) : k;
        int r;
        if (i == pass_at) {
            r = pass_(s, hs, turn, tb, sig, last, passes, first, out, t);
        } else {
            const splay *p = &plays[pass_at < 0 || i < pass_at ? i : i - 1];
            h2.h[turn] = p->left;
            h2.cards = hs->cards - p->n;
            h2.ka[turn] = p->ka;
            h2.kb[turn] = p->kb;
            play_t pp = solver_play(hs->h[turn], p);
            h2.h1[turn] = p->lh1;
            h2.h2[turn] = p->lh2;
            if (!cs_empty(p->left)) {
                r = solver_ge(s, &h2, nxt, &pp, p->sig, turn, 0, first, out, t);
            } else {
                int out2 = out | (1 << turn), first2 = first < 0 ? turn : first;
                if ((out2 >> ((turn + 2) & 3)) & 1)
                    r = result_value(s, first2, turn, POP13[out2]) >= t;
                else
                    r = solver_ge(s, &h2, next_seat(out2, turn), &pp, p->sig, turn, 0, first2, out2, t);
            }
        }
        if (r < 0) { result = -1; break; }
        if (r == maxing) {
            if (maxing) { if (lo < t) lo = t; }
            else if (hi >= t) hi = t - 1;
            best = i;
            result = r;
        }
    }
    if (result == -2) { /* every child tried: the side to act cannot reach t */
        if (maxing) { if (hi >= t) hi = t - 1; }
        else if (lo < t) lo = t;
        result = !maxing;
    }
    if (result >= 0) { /* store the bounds */
        tentry e = {ha, hb, (int8_t)lo, (int8_t)hi, (int16_t)best};
        if (s->near_n * 2 >= s->near_cap && s->near_cap < ((size_t)1 << NEAR_BITS)) tt_grow(&s->near, &s->near_cap);
        s->near_n += tt_put(s->near, s->near_cap, e);
        if (big) {
            if (s->tt_n * 2 >= s->tt_cap && s->tt_cap < ((size_t)1 << TT_BITS)) tt_grow(&s->tt, &s->tt_cap);
            s->tt_n += tt_put(s->tt, s->tt_cap, e);
        }
    }
    if (owned) free(plays);
    return result;
}

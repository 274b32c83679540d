/* The heuristic bot's hand plan: duplicate/bots.py's plan_hand, step for step (a hand
 * split into combinations the way a sensible beginner sorts it; docs/SELFPLAY.md). */
#include <string.h>
#include "core_py.h"
#include "core_plan.h"

typedef struct { int n; int k[12]; } pool_t;
typedef struct { pool_t p[15]; int counts[15]; } pools_t;

static cset kind_set(int k) {
    cset c = {{0, 0, 0}};
    if (k < 52) cs_add_field(&c, k >> 2, 1u << (3 * (k & 3)));
    else c.w[2] = 1ull << (k == 52 ? SB_SHIFT : HR_SHIFT);
    return c;
}

static int rank_of_kind(int k) { return k < 52 ? k >> 2 : (k == 52 ? R_SB : R_HR); }

static cset take(pools_t *ps, int r, int n) {
    pool_t *p = &ps->p[r];
    cset c = {{0, 0, 0}};
    if (n > p->n) n = p->n;
    for (int i = 0; i < n; i++) c = cs_add(c, kind_set(p->k[i]));
    memmove(p->k, p->k + n, sizeof(int) * (size_t)(p->n - n));
    p->n -= n;
    return c;
}

static void pool_remove(pool_t *p, int k) {
    for (int i = 0; i < p->n; i++)
        if (p->k[i] == k) {
            memmove(p->k + i, p->k + i + 1, sizeof(int) * (size_t)(p->n - i - 1));
            p->n--;
            return;
        }
}

static int loose_plays(const int *counts) {
    int singles = 0, pairs = 0, triples = 0;
    for (int r = 0; r < 15; r++) {
        int c = counts[r];
        if (c == 1) singles++;
        else if (c == 2) pairs++;
        else if (c >= 3) triples++;
    }
    return singles + pairs + triples - (triples < pairs ? triples : pairs);
}

/* the lowest straight flush of natural cards and `wilds` wild hearts costing the rest at
 * most one more play: its record rank and natural kinds; 0 when there is none */
static int find_sf(pools_t *ps, int wilds, int *rank, int *kinds, int *nk) {
    unsigned held[4] = {0, 0, 0, 0};
    for (int r = 0; r < 13; r++)
        for (int i = 0; i < ps->p[r].n; i++) held[ps->p[r].k[i] & 3] |= 1u << r;
    int need = 5 - wilds, before = -1;
    for (int suit = 0; suit < 4; suit++) {
        unsigned mask = held[suit];
        for (int i = 0; i < 10; i++) {
            const window_t *wd = &WIN_STRAIGHT[i];
            if (POP13[mask & wd->mask] != need) continue;
            if (before < 0) before = loose_plays(ps->counts);
            for (int j = 0; j < 5; j++)
                if ((mask >> wd->ranks[j]) & 1) ps->counts[wd->ranks[j]]--;
            int after = loose_plays(ps->counts);
            for (int j = 0; j < 5; j++)
                if ((mask >> wd->ranks[j]) & 1) ps->counts[wd->ranks[j]]++;
            if (after <= before + 1) {
                *rank = wd->rank;
                *nk = 0;
                for (int j = 0; j < 5; j++)
                    if ((mask >> wd->ranks[j]) & 1) kinds[(*nk)++] = 4 * wd->ranks[j] + suit;
                return 1;
            }
        }
    }
    return 0;
}

static cset take_kinds(pools_t *ps, const int *kinds, int nk) {
    cset c = {{0, 0, 0}};
    for (int i = 0; i < nk; i++) {
        int r = rank_of_kind(kinds[i]);
        pool_remove(&ps->p[r], kinds[i]);
        ps->counts[r]--;
        c = cs_add(c, kind_set(kinds[i]));
    }
    return c;
}

/* one card of each rank for a straight, avoiding five of one suit if possible */
static cset take_straight(pools_t *ps, const int *ranks, int *flush) {
    int chosen[5];
    for (int i = 0; i < 5; i++) chosen[i] = ps->p[ranks[i]].k[0];
    int one = 1;
    for (int i = 1; i < 5; i++)
        if ((chosen[i] & 3) != (chosen[0] & 3)) one = 0;
    if (one) {
        for (int i = 0; i < 5 && one; i++) {
            const pool_t *p = &ps->p[ranks[i]];
            for (int j = 0; j < p->n; j++)
                if ((p->k[j] & 3) != (chosen[i] & 3)) {
                    chosen[i] = p->k[j];
                    one = 0;
                    break;
                }
        }
    }
    cset c = {{0, 0, 0}};
    int suits = 0;
    for (int i = 0; i < 5; i++) {
        pool_remove(&ps->p[ranks[i]], chosen[i]);
        c = cs_add(c, kind_set(chosen[i]));
        suits |= 1 << (chosen[i] & 3);
    }
    *flush = !(suits & (suits - 1));
    return c;
}

static void add(play_t *v, int *n, int t, int r, cset c) {
    v[*n].type = (uint8_t)t;
    v[*n].rank = (uint8_t)r;
    v[*n].cards = c;
    v[*n].n = (uint8_t)cs_size(c);
    (*n)++;
}

static int is_seq(int t) { return t == T_STRAIGHT || t == T_THREE_PAIR || t == T_TWO_TRIPS || t == T_STRAIGHT_FLUSH; }

/* plan a valid hand; bombs and others get at most 27 plays each */
static void plan(cset hand, int level, int bomb_max, play_t *bombs, int *nb, play_t *others, int *no) {
    pools_t ps;
    memset(&ps, 0, sizeof ps);
    int wild = 4 * level + 1, wilds = 0;
    for (int k = 0; k < 54; k++) {
        int r = rank_of_kind(k);
        int c = k < 52 ? (int)(cs_field(&hand, r) >> (3 * (k & 3))) & 7 : (k == 52 ? cs_sb(&hand) : cs_hr(&hand));
        for (int i = 0; i < c; i++) {
            if (k == wild) wilds++;
            else ps.p[r].k[ps.p[r].n++] = k;
        }
    }
    *nb = *no = 0;
    if (ps.p[R_SB].n == 2 && ps.p[R_HR].n == 2) {
        cset c = cs_add(take(&ps, R_SB, 2), take(&ps, R_HR, 2));
        add(bombs, nb, T_FOUR_KINGS, R_SB, c);
    }
    for (int r = 0; r < 13; r++)
        while (ps.p[r].n >= 4) add(bombs, nb, T_BOMB, r, take(&ps, r, ps.p[r].n < bomb_max ? ps.p[r].n : bomb_max));
    for (int r = 0; r < 15; r++) ps.counts[r] = ps.p[r].n;
    int rank, kinds[5], nk;
    while (find_sf(&ps, 0, &rank, kinds, &nk)) add(bombs, nb, T_STRAIGHT_FLUSH, rank, take_kinds(&ps, kinds, nk));
    for (int w = 0; w < wilds; w++) {
        int found = find_sf(&ps, 1, &rank, kinds, &nk);
        int best = -1;
        for (int r = 0; r < 13; r++)
            if (ps.counts[r] == 3 && (best < 0 || LEVEL_VALUE[level][r] > LEVEL_VALUE[level][best])) best = r;
        if (found) {
            add(bombs, nb, T_STRAIGHT_FLUSH, rank, cs_add(take_kinds(&ps, kinds, nk), kind_set(wild)));
        } else if (best >= 0) {
            ps.counts[best] = 0;
            add(bombs, nb, T_BOMB, best, cs_add(take(&ps, best, 3), kind_set(wild)));
        } else {
            ps.p[level].k[ps.p[level].n++] = wild;
            ps.counts[level]++;
        }
    }
    /* sequences, greedily, while one saves plays: plates, tubes, straights, lowest first */
    static const int SEQ_T[3] = {T_TWO_TRIPS, T_THREE_PAIR, T_STRAIGHT}, SEQ_PER[3] = {3, 2, 1};
    const window_t *wins[3] = {WIN_TWO_TRIPS, WIN_THREE_PAIR, WIN_STRAIGHT};
    const int nwins[3] = {13, 12, 10}, lens[3] = {2, 3, 5};
    int bestp = loose_plays(ps.counts);
    for (;;) {
        int pick_g = -1, pick_i = -1;
        unsigned at_least[4] = {0, 0, 0, 0};
        for (int r = 0; r < 13; r++)
            for (int n = 1; n <= (ps.counts[r] < 3 ? ps.counts[r] : 3); n++) at_least[n] |= 1u << r;
        for (int g = 0; g < 3; g++)
            for (int i = 0; i < nwins[g]; i++) {
                const window_t *wd = &wins[g][i];
                if ((at_least[SEQ_PER[g]] & wd->mask) != wd->mask) continue;
                for (int j = 0; j < lens[g]; j++) ps.counts[wd->ranks[j]] -= SEQ_PER[g];
                int plays = loose_plays(ps.counts) + 1;
                for (int j = 0; j < lens[g]; j++) ps.counts[wd->ranks[j]] += SEQ_PER[g];
                if (plays < bestp) {
                    bestp = plays;
                    pick_g = g;
                    pick_i = i;
                }
            }
        if (pick_g < 0) break;
        const window_t *wd = &wins[pick_g][pick_i];
        int per = SEQ_PER[pick_g];
        for (int j = 0; j < lens[pick_g]; j++) ps.counts[wd->ranks[j]] -= per;
        cset c = {{0, 0, 0}};
        if (SEQ_T[pick_g] == T_STRAIGHT) {
            int flush;
            c = take_straight(&ps, wd->ranks, &flush);
            if (flush) {
                add(bombs, nb, T_STRAIGHT_FLUSH, wd->rank, c);
                continue;
            }
        } else {
            for (int j = 0; j < lens[pick_g]; j++) c = cs_add(c, take(&ps, wd->ranks[j], per));
        }
        add(others, no, SEQ_T[pick_g], wd->rank, c);
    }
    /* full houses, triples, pairs, singles, by strength */
    int order[15];
    for (int i = 0; i < 13; i++) order[i] = LEVEL_ORDER[level][i];
    order[13] = R_SB;
    order[14] = R_HR;
    int pairs[15], np = 0, pi = 0;
    for (int i = 0; i < 15; i++)
        if (ps.counts[order[i]] == 2 && order[i] < R_SB) pairs[np++] = order[i];
    int triples[15], nt = 0;
    for (int i = 0; i < 15; i++)
        if (ps.counts[order[i]] == 3) triples[nt++] = order[i];
    for (int i = 0; i < nt; i++) {
        int r = triples[i];
        cset c = take(&ps, r, 3);
        if (pi < np) {
            int p = pairs[pi++];
            ps.counts[p] = 0;
            add(others, no, T_THREE_WITH_TWO, r, cs_add(c, take(&ps, p, 2)));
        } else {
            add(others, no, T_TRIPS, r, c);
        }
    }
    for (int i = 0; i < 15; i++) {
        int r = order[i];
        if (ps.p[r].n == 2) add(others, no, T_PAIR, r, take(&ps, r, 2));
        else if (ps.p[r].n == 1) add(others, no, T_SINGLE, r, take(&ps, r, 1));
    }
    /* stable sorts: bombs by power, others by (weakness, more cards first, type) */
    for (int i = 1; i < *nb; i++) {
        play_t x = bombs[i];
        int32_t kx = combo_power(x.type, x.rank, x.n, level), j = i - 1;
        while (j >= 0 && combo_power(bombs[j].type, bombs[j].rank, bombs[j].n, level) > kx) {
            bombs[j + 1] = bombs[j];
            j--;
        }
        bombs[j + 1] = x;
    }
#define OKEY(p) ((((is_seq((p).type) ? seq_position((p).rank) : LEVEL_VALUE[level][(p).rank]) + 1) << 16) | \
                 ((16 - (p).n) << 8) | (p).type)
    for (int i = 1; i < *no; i++) {
        play_t x = others[i];
        int32_t kx = OKEY(x), j = i - 1;
        while (j >= 0 && OKEY(others[j]) > kx) {
            others[j + 1] = others[j];
            j--;
        }
        others[j + 1] = x;
    }
#undef OKEY
}

static PyObject *plays_tuple(const play_t *v, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *c = play_to_py(&v[i]);
        if (!c) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, c);
    }
    return t;
}

/* plan_hand(hand, level, bomb_max) -> (bombs, others) */
static PyObject *f_plan_hand(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 3) return PyErr_Format(PyExc_TypeError, "plan_hand takes 3 arguments, got %zd", n);
    cset hand;
    int level;
    if (py_to_cs(a[0], &hand, "hand") < 0 || py_level(a[1], &level) < 0) return NULL;
    int overflow = 0;
    long bm = PyLong_Check(a[2]) ? PyLong_AsLongAndOverflow(a[2], &overflow) : 0;
    if (overflow || bm < 4 || bm > 10) {
        PyErr_Clear();
        return PyErr_Format(S.e_guandan, "bomb_max must be an int 4..10");
    }
    play_t bombs[60], others[60];
    int nb, no;
    plan(hand, level, (int)bm, bombs, &nb, others, &no);
    PyObject *b = plays_tuple(bombs, nb), *o = b ? plays_tuple(others, no) : NULL;
    if (!o) {
        Py_XDECREF(b);
        return NULL;
    }
    return Py_BuildValue("(NN)", b, o);
}

/* ---- the heuristic player's choice (duplicate/bots.py HeuristicPlayer.act) ------------ */

#define CLOSE_TO_FINISHING 5


static int plan_plays(cset hand, int level, int bomb_max) {
    play_t b[60], o[60];
    int nb, no;
    plan(hand, level, bomb_max, b, &nb, o, &no);
    return nb + no;
}

static int last_to_answer(const view_t *v) {
    if (v->by < 0) return 0;
    for (int s = (v->seat + 1) & 3; s != v->by; s = (s + 1) & 3)
        if (v->counts[s]) return 0;
    return 1;
}

/* the choice: 1 and *out for a play, 0 for a pass, -1 out of memory (core_plan.h) */
int heuristic_act(const view_t *v, play_t *out) {
    play_t bombs[60], others[60];
    int nb, no, bm = v->ru->bomb_max, level = v->level;
    plan(v->hand, level, bm, bombs, &nb, others, &no);
    int partner = v->seat ^ 2, opp1 = v->counts[(v->seat + 1) & 3], opp2 = v->counts[(v->seat + 3) & 3];
    if (!v->tb) {
        if (!no) { *out = bombs[0]; return 1; }
        int pl = v->counts[partner];
        if (pl == 1 || pl == 2) {
            int wanted = pl == 1 ? T_SINGLE : T_PAIR;
            for (int i = 0; i < no; i++)
                if (others[i].type == wanted) { *out = others[i]; return 1; }
        }
        if (opp1 == 1 || opp2 == 1) {
            for (int i = 0; i < no; i++)
                if (others[i].type != T_SINGLE) { *out = others[i]; return 1; }
            *out = others[no - 1];
            return 1;
        }
        *out = others[0];
        return 1;
    }
    const play_t *tb = v->tb;
    int close = (opp1 > 0 && opp1 <= CLOSE_TO_FINISHING) || (opp2 > 0 && opp2 <= CLOSE_TO_FINISHING);
    int plays = nb + no;
    if (v->by == partner) {
        if (plays == 1) {
            const play_t *only = nb ? &bombs[0] : &others[0];
            if (combo_beats(only, tb, level) && only->type < T_STRAIGHT_FLUSH) { *out = *only; return 1; }
        }
        return 0;
    }
    if (tb->type < T_STRAIGHT_FLUSH) {
        for (int i = 0; i < no; i++)
            if (others[i].type == tb->type && combo_beats(&others[i], tb, level)) { *out = others[i]; return 1; }
        cset free_ = v->hand;
        for (int i = 0; i < nb; i++) free_ = cs_sub(free_, bombs[i].cards);
        if (!cs_empty(free_)) {
            plist l = {0};
            if (generate(free_, level, tb, v->ru, 1, &l) < 0) { plist_free(&l); return -1; }
            cset wild = cs_wilds(level, 1);
            size_t k = 0;
            for (size_t i = 0; i < l.n; i++)
                if (l.v[i].type < T_STRAIGHT_FLUSH) l.v[k++] = l.v[i];
            /* stable sort by (holds a wild, power) */
#define HKEY(p) (((int32_t)cs_subset(wild, (p).cards) << 24) | combo_power((p).type, (p).rank, (p).n, level))
            for (size_t i = 1; i < k; i++) {
                play_t x = l.v[i];
                int32_t kx = HKEY(x);
                size_t j = i;
                while (j > 0 && HKEY(l.v[j - 1]) > kx) { l.v[j] = l.v[j - 1]; j--; }
                l.v[j] = x;
            }
#undef HKEY
            for (size_t i = 0; i < k; i++)
                if (close || plan_plays(cs_sub(v->hand, l.v[i].cards), level, bm) <= plays) {
                    *out = l.v[i];
                    plist_free(&l);
                    return 1;
                }
            plist_free(&l);
        }
    }
    if (nb && (close || plays <= 2 || last_to_answer(v)))
        for (int i = 0; i < nb; i++)
            if (combo_beats(&bombs[i], tb, level)) { *out = bombs[i]; return 1; }
    return 0;
}

static int seat_of(PyObject *o, int none_ok) {
    if (none_ok && o == Py_None) return -1;
    int overflow = 0;
    long x = PyLong_Check(o) ? PyLong_AsLongAndOverflow(o, &overflow) : -1;
    if (overflow || x < 0 || x > 3) {
        PyErr_Clear();
        PyErr_Format(S.e_guandan, "invalid seat: expected N, E, S or W%s", none_ok ? " or None" : "");
        return -2;
    }
    return (int)x;
}

/* heuristic_act(hand, level, rules, to_beat, seat, to_beat_by, counts) -> Combo | None */
static PyObject *f_heuristic_act(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 7) return PyErr_Format(PyExc_TypeError, "heuristic_act takes 7 arguments, got %zd", n);
    view_t v;
    rules_t ru;
    play_t tb;
    if (py_to_cs(a[0], &v.hand, "hand") < 0 || py_level(a[1], &v.level) < 0 || py_rules(a[2], &ru) < 0)
        return NULL;
    v.ru = &ru;
    v.tb = NULL;
    if (a[3] != Py_None) {
        if (py_to_play(a[3], &tb, "play to beat", 1) < 0) return NULL;
        v.tb = &tb;
    }
    if ((v.seat = seat_of(a[4], 0)) < -1 || (v.by = seat_of(a[5], 1)) < -1) return NULL;
    if ((v.tb != NULL) != (v.by >= 0))
        return PyErr_Format(S.e_guandan, "a play to beat and the seat that made it go together");
    PyObject *seq = PySequence_Tuple(a[6]);
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_XDECREF(seq);
        PyErr_Clear();
        return PyErr_Format(S.e_guandan, "counts must be 4 card counts (N, E, S, W)");
    }
    for (int s = 0; s < 4; s++) {
        int overflow = 0;
        PyObject *c = PySequence_Fast_GET_ITEM(seq, s);
        long x = PyLong_Check(c) ? PyLong_AsLongAndOverflow(c, &overflow) : -1;
        if (overflow || x < 0 || x > 108) {
            Py_DECREF(seq);
            PyErr_Clear();
            return PyErr_Format(S.e_guandan, "counts must be 4 card counts (N, E, S, W)");
        }
        v.counts[s] = (int)x;
    }
    Py_DECREF(seq);
    if (cs_empty(v.hand)) return PyErr_Format(S.e_guandan, "the seat to act holds no cards");
    play_t out;
    int r = heuristic_act(&v, &out);
    if (r < 0) return PyErr_NoMemory();
    if (!r) Py_RETURN_NONE;
    return play_to_py(&out);
}

PyMethodDef PLAN_METHODS[] = {
    {"heuristic_act", (PyCFunction)(void (*)(void))f_heuristic_act, METH_FASTCALL,
     "heuristic_act(hand, level, rules, to_beat, seat, to_beat_by, counts) -> Combo | None"},
    {"plan_hand", (PyCFunction)(void (*)(void))f_plan_hand, METH_FASTCALL,
     "plan_hand(hand, level, bomb_max) -> (bombs, others): duplicate.bots.plan_hand's plan"},
    {NULL, NULL, 0, NULL}};

/* Heuristic playouts: a solver position (analysis.state.Position) played to the end of the
 * deal by four heuristic players, each seeing its own hand and the public counts; the
 * deal's value for N-S. duplicate.search.heuristic_playout step for step: the position
 * moves as analysis.solver.step moves it, each choice is core_plan.c's heuristic_act. */
#include "core_py.h"
#include "core_plan.h"

/* the most actions a playout may take: every action but a pass plays a card, and a trick
 * ends after at most three passes, so a deal of 108 cards takes fewer than 4 * 108 */
#define PLAYOUT_ACTIONS 1024

typedef struct {
    cset h[4];
    int counts[4];
    int turn, has_tb, last, passes, first, out;
    play_t tb;
} ppos_t;

static int next_in(int out, int seat) {
    for (int i = 1; i <= 4; i++) {
        int s = (seat + i) & 3;
        if (!((out >> s) & 1)) return s;
    }
    return -1;
}

/* analysis.state.deal_result_value */
static int result_value(int first, int ender, int n_out, const rules_t *ru) {
    int levels = (ender ^ first) & 1 ? 1 : n_out == 2 ? (ru->plus4 ? 4 : 3) : 2;
    return first & 1 ? -levels : levels;
}

/* analysis.solver.step: the seat to act plays *c (NULL: passes). 1 and *value when that
 * ends the deal, 0 when it goes on, -1 when a leader would pass. */
static int pp_step(ppos_t *p, const play_t *c, const rules_t *ru, int *value) {
    int turn = p->turn;
    if (c) {
        p->h[turn] = cs_sub(p->h[turn], c->cards);
        p->counts[turn] -= c->n;
        p->tb = *c;
        p->has_tb = 1;
        p->last = turn;
        p->passes = 0;
        if (!cs_empty(p->h[turn])) {
            p->turn = next_in(p->out, turn);
            return 0;
        }
        p->out |= 1 << turn;
        if (p->first < 0) p->first = turn;
        if ((p->out >> ((turn + 2) & 3)) & 1) {
            *value = result_value(p->first, turn, POP13[p->out], ru);
            return 1;
        }
        p->turn = next_in(p->out, turn);
        return 0;
    }
    if (!p->has_tb) return -1;
    int passes = p->passes + 1, nout = POP13[p->out];
    int holding = !cs_empty(p->h[p->last]);
    if (passes >= (holding ? 3 - nout : 4 - nout)) {
        int leader = holding ? p->last : ru->jiefeng_next ? next_in(p->out, p->last) : (p->last + 2) & 3;
        p->turn = leader;
        p->has_tb = 0;
        p->last = -1;
        p->passes = 0;
        return 0;
    }
    p->passes = passes;
    p->turn = next_in(p->out, turn);
    return 0;
}

/* the value for N-S of *p played out by the heuristic; -1 out of memory, -2 a position
 * that does not end (a leader passing, too many actions: not a position of a deal) */
static int playout(ppos_t p, int level, const rules_t *ru, int *value) {
    for (int n = 0; n < PLAYOUT_ACTIONS; n++) {
        view_t v = {p.h[p.turn], level, p.turn, p.has_tb ? p.last : -1,
                    {p.counts[0], p.counts[1], p.counts[2], p.counts[3]}, p.has_tb ? &p.tb : NULL, ru};
        if (cs_empty(v.hand)) return -2;
        play_t c;
        int r = heuristic_act(&v, &c);
        if (r < 0) return -1;
        r = pp_step(&p, r ? &c : NULL, ru, value);
        if (r < 0) return -2;
        if (r) return 0;
    }
    return -2;
}

static int is_reading(const play_t *c, int level, const rules_t *ru) {
    uint8_t t[32], r[32];
    int k = reading_keys(c->cards, level, ru, t, r);
    for (int i = 0; i < k; i++)
        if (t[i] == c->type && r[i] == c->rank) return 1;
    return 0;
}

/* the position, level and rules of a[0..8] (hands, turn, to_beat, last, passes, first, out,
 * level, rules), checked as the native solver checks its positions */
static int position_args(PyObject *const *a, ppos_t *p, int *level, rules_t *ru) {
    PyObject *seq = PySequence_Tuple(a[0]);
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_XDECREF(seq);
        PyErr_Clear();
        PyErr_Format(S.e_guandan, "a position has 4 hands");
        return -1;
    }
    for (int i = 0; i < 4; i++)
        if (py_to_cs(PySequence_Fast_GET_ITEM(seq, i), &p->h[i], "hand") < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    if (small_int(a[1], 0, 3, &p->turn) < 0 || small_int(a[3], -1, 3, &p->last) < 0 ||
        small_int(a[4], 0, 3, &p->passes) < 0 || small_int(a[5], -1, 3, &p->first) < 0 ||
        small_int(a[6], 0, 15, &p->out) < 0) {
        PyErr_Format(S.e_guandan, "not a position: turn 0..3, last -1..3, passes 0..3, first -1..3, out 0..15");
        return -1;
    }
    if (py_level(a[7], level) < 0 || py_rules(a[8], ru) < 0) return -1;
    p->has_tb = a[2] != Py_None;
    if (p->has_tb && py_to_play(a[2], &p->tb, "play to beat", 1) < 0) return -1;
    int out = p->out, first = p->first;
    for (int i = 0; i < 4; i++) {
        if (((out >> i) & 1) != cs_empty(p->h[i])) {
            PyErr_Format(S.e_guandan, "not a position: the players out are those with no cards");
            return -1;
        }
        p->counts[i] = cs_size(p->h[i]);
    }
    if (cs_empty(p->h[p->turn]) || (p->has_tb != (p->last >= 0)) || (out && first < 0) ||
        (first >= 0 && !((out >> first) & 1)) || ((out >> 0 & 1) && (out >> 2 & 1)) ||
        ((out >> 1 & 1) && (out >> 3 & 1))) {
        PyErr_Format(S.e_guandan, "not a position that can occur in a deal");
        return -1;
    }
    if (p->has_tb && !is_reading(&p->tb, *level, ru)) {
        PyErr_Format(S.e_guandan, "the play to beat is no reading of its cards");
        return -1;
    }
    return 0;
}

static PyObject *playout_error(int rc) {
    if (rc == -1) return PyErr_NoMemory();
    return PyErr_Format(S.e_guandan, "not a position of a deal: its playout does not end");
}

/* heuristic_playout(hands, turn, to_beat, last, passes, first, out, level, rules) -> int */
static PyObject *f_heuristic_playout(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 9) return PyErr_Format(PyExc_TypeError, "heuristic_playout takes 9 arguments, got %zd", n);
    ppos_t p;
    int level, value = 0, rc;
    rules_t ru;
    if (position_args(a, &p, &level, &ru) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = playout(p, level, &ru, &value);
    Py_END_ALLOW_THREADS
    if (rc < 0) return playout_error(rc);
    return PyLong_FromLong(value);
}

/* heuristic_playouts(hands, turn, to_beat, last, passes, first, out, level, rules, plays)
 *   -> [int]: for each play (a Combo, or None: pass) the value after the seat to act makes
 *   it and the heuristic plays the deal out */
static PyObject *f_heuristic_playouts(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 10) return PyErr_Format(PyExc_TypeError, "heuristic_playouts takes 10 arguments, got %zd", n);
    ppos_t p;
    int level;
    rules_t ru;
    if (position_args(a, &p, &level, &ru) < 0) return NULL;
    PyObject *seq = PySequence_Tuple(a[9]);
    if (!seq) {
        PyErr_Clear();
        return PyErr_Format(PyExc_TypeError, "plays must be a sequence of Combo or None");
    }
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    play_t *plays = PyMem_Malloc(sizeof(play_t) * (size_t)(k ? k : 1));
    int *values = PyMem_Malloc(sizeof(int) * (size_t)(k ? k : 1));
    char *pass = PyMem_Malloc((size_t)(k ? k : 1));
    PyObject *res = NULL;
    if (!plays || !values || !pass) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *c = PySequence_Fast_GET_ITEM(seq, i);
        pass[i] = c == Py_None;
        if (pass[i]) {
            if (!p.has_tb) {
                PyErr_Format(S.e_illegal, "the leader of a trick may not pass");
                goto done;
            }
            continue;
        }
        if (py_to_play(c, &plays[i], "play", 1) < 0) goto done;
        if (cs_empty(plays[i].cards) || !cs_subset(plays[i].cards, p.h[p.turn]) ||
            !is_reading(&plays[i], level, &ru) || (p.has_tb && !combo_beats(&plays[i], &p.tb, level))) {
            PyErr_Format(S.e_illegal, "play %zd is not a legal play of the seat to act", i);
            goto done;
        }
    }
    int rc = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < k && rc == 0; i++) {
        ppos_t q = p;
        int r = pp_step(&q, pass[i] ? NULL : &plays[i], &ru, &values[i]);
        if (r < 0) rc = -2;
        else if (r == 0) rc = playout(q, level, &ru, &values[i]);
    }
    Py_END_ALLOW_THREADS
    if (rc < 0) {
        playout_error(rc);
        goto done;
    }
    res = PyList_New(k);
    for (Py_ssize_t i = 0; res && i < k; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (!v) {
            Py_CLEAR(res);
            break;
        }
        PyList_SET_ITEM(res, i, v);
    }
done:
    PyMem_Free(plays);
    PyMem_Free(values);
    PyMem_Free(pass);
    Py_DECREF(seq);
    return res;
}


/* ---- the search's worlds: duplicate.determinise.sample_hands's draw ------------------- */

/* duplicate.bots.XorShift64 */
static uint64_t xs_next(uint64_t *s) {
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static uint64_t xs_below(uint64_t *s, uint64_t n) {
    uint64_t r = (UINT64_MAX % n + 1) % n; /* 2^64 mod n: accept x < 2^64 - r */
    for (;;) {
        uint64_t x = xs_next(s);
        if (!r || x <= UINT64_MAX - r) return x % n;
    }
}

static int kind_count(const cset *c, int k) {
    if (k < 52) return (int)(cs_field(c, k >> 2) >> (3 * (k & 3))) & 7;
    return k == 52 ? cs_sb(c) : cs_hr(c);
}

static void add_kind(cset *c, int k) {
    if (k < 52) cs_add_field(c, k >> 2, 1u << (3 * (k & 3)));
    else c->w[2] += 1ull << (k == 52 ? SB_SHIFT : HR_SHIFT);
}

/* deal_unseen(unseen, needs, state) -> ((N, E, S, W), state): the unseen cards in kind
 * order, the first sum(needs) places shuffled (partial Fisher-Yates, XorShift64 from
 * `state`), dealt to the seats in order, needs[s] each */
static PyObject *f_deal_unseen(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 3) return PyErr_Format(PyExc_TypeError, "deal_unseen takes 3 arguments, got %zd", n);
    cset unseen;
    if (py_to_cs(a[0], &unseen, "unseen cards") < 0) return NULL;
    int need[4], total = 0;
    PyObject *seq = PySequence_Tuple(a[1]);
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_XDECREF(seq);
        PyErr_Clear();
        return PyErr_Format(S.e_guandan, "needs must be 4 card counts (N, E, S, W)");
    }
    for (int s = 0; s < 4; s++)
        if (small_int(PySequence_Fast_GET_ITEM(seq, s), 0, 108, &need[s]) < 0) {
            Py_DECREF(seq);
            return PyErr_Format(S.e_guandan, "needs must be 4 card counts (N, E, S, W)");
        }
    Py_DECREF(seq);
    uint64_t state = PyLong_Check(a[2]) ? PyLong_AsUnsignedLongLong(a[2]) : 0;
    if (PyErr_Occurred() || !state) {
        PyErr_Clear();
        return PyErr_Format(S.e_guandan, "a generator state is an int 1..2**64-1");
    }
    int ids[108], k = 0;
    for (int kind = 0; kind < 54; kind++)
        for (int c = kind_count(&unseen, kind); c > 0; c--) ids[k++] = kind;
    for (int s = 0; s < 4; s++) total += need[s];
    if (total > k) return PyErr_Format(S.e_guandan, "the needs ask for %d cards but %d are unseen", total, k);
    for (int i = 0; i < total; i++) {
        int j = i + (int)xs_below(&state, (uint64_t)(k - i));
        int x = ids[i];
        ids[i] = ids[j];
        ids[j] = x;
    }
    cset hands[4] = {{{0, 0, 0}}, {{0, 0, 0}}, {{0, 0, 0}}, {{0, 0, 0}}};
    for (int s = 0, at = 0; s < 4; s++)
        for (int i = 0; i < need[s]; i++) add_kind(&hands[s], ids[at++]);
    return Py_BuildValue("((NNNN)K)", cs_to_py(hands[0]), cs_to_py(hands[1]), cs_to_py(hands[2]),
                         cs_to_py(hands[3]), (unsigned long long)state);
}

PyMethodDef PLAYOUT_METHODS[] = {
    {"deal_unseen", (PyCFunction)(void (*)(void))f_deal_unseen, METH_FASTCALL,
     "deal_unseen(unseen, needs, state) -> ((N, E, S, W), state): duplicate.determinise's "
     "draw of the hidden hands with XorShift64 from state"},
    {"heuristic_playout", (PyCFunction)(void (*)(void))f_heuristic_playout, METH_FASTCALL,
     "heuristic_playout(hands, turn, to_beat, last, passes, first, out, level, rules) -> int: "
     "the value for N-S once four heuristic players have played the position out"},
    {"heuristic_playouts", (PyCFunction)(void (*)(void))f_heuristic_playouts, METH_FASTCALL,
     "heuristic_playouts(hands, turn, to_beat, last, passes, first, out, level, rules, plays) -> "
     "[int]: for each play (None: pass), the value after it and a heuristic playout"},
    {NULL, NULL, 0, NULL}};

/* Bindings of the deal's state machine: replay of logged plays, random-play deals. */
#include <stdlib.h>
#include <string.h>
#include "core_py.h"
#include "core_deal.h"

static const char *const SEAT_NAMES[4] = {"N", "E", "S", "W"};

/* hands (4 Cards), level, leader: engine.deal.Deal's checks, its errors */
static int deal_args(PyObject *hands, PyObject *lv, PyObject *leader, cset out[4], int *level, int *lead) {
    PyObject *seq = PySequence_Tuple(hands);
    if (!seq) {
        PyErr_Clear();
        PyErr_SetString(S.e_guandan, "a deal needs 4 hands (N, E, S, W)");
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(seq) != 4) {
        PyErr_Format(S.e_guandan, "a deal needs 4 hands (N, E, S, W), not %zd", PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    cset total = {{0, 0, 0}}, pack = cs_two_packs();
    for (int s = 0; s < 4; s++) {
        char what[32];
        PyOS_snprintf(what, sizeof what, "hand of %s", SEAT_NAMES[s]);
        if (py_to_cs(PySequence_Fast_GET_ITEM(seq, s), &out[s], what) < 0) {
            PyErr_Clear();
            PyErr_Format(S.e_guandan, "hand of %s is not a valid set of cards", SEAT_NAMES[s]);
            Py_DECREF(seq);
            return -1;
        }
        if (cs_empty(out[s])) {
            PyErr_Format(S.e_guandan, "hand of %s is empty: every player starts with cards", SEAT_NAMES[s]);
            Py_DECREF(seq);
            return -1;
        }
        if (!cs_subset(out[s], cs_sub(pack, total))) {
            PyErr_Format(S.e_guandan, "hand of %s holds more copies than the two packs have together "
                         "with the other hands", SEAT_NAMES[s]);
            Py_DECREF(seq);
            return -1;
        }
        total = cs_add(total, out[s]);
    }
    Py_DECREF(seq);
    int overflow = 0;
    long x = PyLong_Check(lv) ? PyLong_AsLongAndOverflow(lv, &overflow) : -1;
    if (overflow || x < 0 || x > 12) {
        PyErr_Clear();
        PyErr_SetString(S.e_guandan, "invalid level: a level is a rank index 0..12 (2..A)");
        return -1;
    }
    *level = (int)x;
    x = -1;
    for (int s = 0; s < 4; s++)
        if (leader == S.seats[s]) x = s;
    if (x < 0) {
        PyErr_SetString(S.e_guandan, "invalid leader: expected a Seat");
        return -1;
    }
    *lead = (int)x;
    return 0;
}

/* (finish order, levels, double down, tricks, reported, actions, over) */
static PyObject *summary(const deal_t *d) {
    PyObject *fin = PyTuple_New(d->nfinish);
    if (!fin) return NULL;
    for (int i = 0; i < d->nfinish; i++) {
        Py_INCREF(S.seats[d->finish[i]]);
        PyTuple_SET_ITEM(fin, i, S.seats[d->finish[i]]);
    }
    deal_result r = {{0}, 0, 0};
    if (d->over) deal_result_of(d, &r);
    return Py_BuildValue("(NiOi(iiii)iO)", fin, r.levels, r.double_down ? Py_True : Py_False, d->ntricks,
                         d->reported[0], d->reported[1], d->reported[2], d->reported[3], d->nactions,
                         d->over ? Py_True : Py_False);
}

/* a logged action; `bad` says what is wrong with it on its own (reported when reached):
 * 1 not None nor a 3-tuple, 2 no valid cards, 3 type or rank alone */
typedef struct { cset cards; int type, rank, pass, bad; } entry_t;

static void read_entry(PyObject *e, entry_t *out) {
    out->bad = 0;
    out->pass = e == Py_None;
    if (out->pass) return;
    if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 3) {
        out->bad = 1;
        return;
    }
    if (py_to_cs(PyTuple_GET_ITEM(e, 0), &out->cards, "cards") < 0) {
        PyErr_Clear();
        out->bad = 2;
        return;
    }
    PyObject *t = PyTuple_GET_ITEM(e, 1), *r = PyTuple_GET_ITEM(e, 2);
    if ((t == Py_None) != (r == Py_None)) {
        out->bad = 3;
        return;
    }
    out->type = out->rank = -1;
    if (t == Py_None) return;
    out->type = out->rank = 99; /* not a reading unless both are valid */
    if (PyObject_TypeCheck(t, (PyTypeObject *)S.ctype)) {
        long x = PyLong_AsLong(t);
        if (x >= 0 && x < N_TYPES) out->type = (int)x;
        PyErr_Clear();
    }
    if (PyLong_Check(r)) {
        int overflow = 0;
        long x = PyLong_AsLongAndOverflow(r, &overflow);
        if (!overflow && x >= 0 && x <= 14) out->rank = (int)x;
        PyErr_Clear();
    }
}

static const char *const REASONS[] = {
    "", "the deal is over: no more plays or passes", "leads and may not pass: the leader must play",
    "plays no cards", "does not hold the cards played", "the play is not a valid reading of its cards",
    "the play does not beat the play to beat", "the cards are no combination",
    "a declared reading needs both its type and its rank",
    "is no logged action: one is None (a pass) or (cards, type, rank)",
    "acts out of turn"};

/* replay(hands, level, leader, log, rules) -> summary; raises at the first bad action */
static PyObject *f_replay(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 5 && n != 6) return PyErr_Format(PyExc_TypeError, "replay takes 5 or 6 arguments, got %zd", n);
    cset hands[4];
    int level, leader;
    rules_t ru;
    if (deal_args(a[0], a[1], a[2], hands, &level, &leader) < 0 || py_rules(a[4], &ru) < 0) return NULL;
    /* seats: None, or bytes naming the seat (0..3, N E S W) of each action, checked in turn */
    PyObject *seat_bytes = n == 6 && a[5] != Py_None ? a[5] : NULL;
    if (seat_bytes && !PyBytes_Check(seat_bytes))
        return PyErr_Format(S.e_guandan, "seats are bytes, one a logged action");
    PyObject *seq = PySequence_Tuple(a[3]);
    if (!seq) {
        PyErr_Clear();
        return PyErr_Format(S.e_guandan, "a log is a sequence of actions");
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (seat_bytes && PyBytes_GET_SIZE(seat_bytes) != len) {
        Py_DECREF(seq);
        return PyErr_Format(S.e_guandan, "seats are bytes, one a logged action");
    }
    /* a copy: the bytes object is immutable, but kept alive only by the caller's frame */
    const unsigned char *seats = NULL;
    unsigned char *seat_copy = NULL;
    if (seat_bytes) {
        seat_copy = malloc((size_t)(len ? len : 1));
        if (!seat_copy) {
            Py_DECREF(seq);
            return PyErr_NoMemory();
        }
        memcpy(seat_copy, PyBytes_AS_STRING(seat_bytes), (size_t)len);
        seats = seat_copy;
    }
    entry_t *es = malloc(sizeof(entry_t) * (size_t)(len ? len : 1));
    if (!es) {
        Py_DECREF(seq);
        free(seat_copy);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < len; i++) read_entry(PySequence_Fast_GET_ITEM(seq, i), &es[i]);
    Py_DECREF(seq);
    deal_t d;
    deal_init(&d, hands, level, leader, &ru);
    Py_ssize_t bad = -1;
    int why = D_OK, who = -1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < len; i++) {
        who = d.turn;
        if (seats && !d.over && (int)seats[i] != d.turn) {
            why = D_TURN;
        } else if (es[i].bad == 1) {
            why = D_SHAPE;
        } else if (es[i].bad && !d.over) {
            why = es[i].bad == 2 ? D_NO_CARDS : D_HALF_DECLARED;
        } else if (es[i].bad) {
            why = D_OVER;
        } else if (es[i].pass) {
            why = d.over ? D_OVER : !d.has_tb ? D_LEAD_PASS : D_OK;
            if (why == D_OK) deal_apply_pass(&d);
        } else {
            play_t p;
            why = deal_check_play(&d, es[i].cards, es[i].type, es[i].rank, &p);
            if (why == D_OK) deal_apply_play(&d, &p);
        }
        if (why != D_OK) {
            bad = i;
            break;
        }
    }
    Py_END_ALLOW_THREADS
    free(es);
    free(seat_copy);
    if (bad >= 0) {
        PyObject *cls = why == D_OVER ? S.e_over : why == D_SHAPE ? S.e_guandan : S.e_illegal;
        if (who < 0) return PyErr_Format(cls, "action %zd: %s", bad, REASONS[why]);
        return PyErr_Format(cls, "action %zd: %s %s", bad, SEAT_NAMES[who], REASONS[why]);
    }
    return summary(&d);
}

static uint64_t seed_of(PyObject *v, int *ok) {
    *ok = 0;
    if (!PyLong_Check(v) || _PyLong_Sign(v) < 0) {
        PyObject *r = PyObject_Repr(v);
        if (r) {
            PyErr_Format(S.e_guandan, "a seed is a non-negative int, not %U", r);
            Py_DECREF(r);
        }
        return 0;
    }
    uint64_t s = PyLong_AsUnsignedLongLongMask(v);
    if (PyErr_Occurred()) return 0;
    *ok = 1;
    return s;
}

/* random_deals(n, seed, level, rules) -> (deals, actions, N-S levels total) */
static PyObject *f_random_deals(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 4) return PyErr_Format(PyExc_TypeError, "random_deals takes 4 arguments, got %zd", n);
    long count = PyLong_Check(a[0]) ? PyLong_AsLong(a[0]) : -1;
    if (count < 0 || count > 100000000) {
        PyErr_Clear();
        return PyErr_Format(S.e_guandan, "random_deals: n must be an int 0..10^8");
    }
    int ok, level;
    uint64_t seed = seed_of(a[1], &ok);
    rules_t ru;
    if (!ok || py_level(a[2], &level) < 0 || py_rules(a[3], &ru) < 0) return NULL;
    rng_t g = {seed};
    plist scratch = {0};
    long long actions = 0, ns = 0;
    int oom = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count && !oom; i++) {
        cset hands[4];
        deal_t d;
        shuffle_hands(&g, hands);
        deal_init(&d, hands, level, 0, &ru);
        int k = random_deal(&d, &g, &scratch, NULL, 0);
        if (k < 0) { oom = 1; break; }
        actions += k;
        deal_result r;
        deal_result_of(&d, &r);
        ns += (r.finish[0] & 1) ? -r.levels : r.levels;
    }
    Py_END_ALLOW_THREADS
    plist_free(&scratch);
    if (oom) return PyErr_NoMemory();
    return Py_BuildValue("(lLL)", count, actions, ns);
}

/* random_deal_log(seed, level, rules) -> (hands, log, choices, summary): one random deal,
 * every action as (cards, type, rank) or None, with the choice (k of m options) made */
static PyObject *f_random_deal_log(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 3) return PyErr_Format(PyExc_TypeError, "random_deal_log takes 3 arguments, got %zd", n);
    int ok, level;
    uint64_t seed = seed_of(a[0], &ok);
    rules_t ru;
    if (!ok || py_level(a[1], &level) < 0 || py_rules(a[2], &ru) < 0) return NULL;
    rng_t g = {seed};
    cset hands[4];
    shuffle_hands(&g, hands);
    deal_t d;
    deal_init(&d, hands, level, 0, &ru);
    enum { CAP = 4096 }; /* a deal has at most 108 plays and 3 passes after each */
    logged *log = malloc(sizeof(logged) * CAP);
    plist scratch = {0};
    if (!log) return PyErr_NoMemory();
    int k = random_deal(&d, &g, &scratch, log, CAP);
    plist_free(&scratch);
    if (k < 0) {
        free(log);
        return PyErr_NoMemory();
    }
    PyObject *hs = NULL, *lg = NULL, *ch = NULL, *sm = NULL, *out = NULL;
    hs = PyTuple_New(4);
    lg = PyList_New(k);
    ch = PyList_New(k);
    if (!hs || !lg || !ch) goto done;
    for (int s = 0; s < 4; s++) {
        PyObject *h = cs_to_py(hands[s]);
        if (!h) goto done;
        PyTuple_SET_ITEM(hs, s, h);
    }
    for (int i = 0; i < k; i++) {
        PyObject *e;
        if (log[i].play.type == 255) {
            e = Py_None;
            Py_INCREF(e);
        } else {
            e = play_to_py(&log[i].play);
            if (!e) goto done;
        }
        PyList_SET_ITEM(lg, i, e);
        PyObject *c = Py_BuildValue("(ii)", log[i].k, log[i].m);
        if (!c) goto done;
        PyList_SET_ITEM(ch, i, c);
    }
    sm = summary(&d);
    if (sm) out = PyTuple_Pack(4, hs, lg, ch, sm);
done:
    free(log);
    Py_XDECREF(hs);
    Py_XDECREF(lg);
    Py_XDECREF(ch);
    Py_XDECREF(sm);
    return out;
}

PyMethodDef DEAL_METHODS[] = {
    {"replay", (PyCFunction)(void (*)(void))f_replay, METH_FASTCALL,
     "replay(hands, level, leader, log, rules[, seats]) -> summary; raises at the first bad action"},
    {"random_deals", (PyCFunction)(void (*)(void))f_random_deals, METH_FASTCALL,
     "random_deals(n, seed, level, rules) -> (deals, actions, N-S levels total)"},
    {"random_deal_log", (PyCFunction)(void (*)(void))f_random_deal_log, METH_FASTCALL,
     "random_deal_log(seed, level, rules) -> (hands, log, choices, summary)"},
    {NULL, NULL, 0, NULL}};

/* The exact solver's Python type (duplicate.analysis._native._solver.Solver) and its module;
 * the search is core_solver.c. */
#include "core_solver.h"
#include <stdlib.h>
#include <string.h>

/* ---- Python type ----------------------------------------------------------------------- */

/* The solver's tables are used with the GIL released, so every method that touches them
 * holds the solver's own lock: a Solver shared between threads answers one call at a time.
 * Waiting for the lock releases the GIL (the holder may need it to finish). */
static void ns_lock(NSolver *s) {
    if (!PyThread_acquire_lock(s->lock, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS
        PyThread_acquire_lock(s->lock, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
}

static void ns_dealloc(NSolver *s) {
    if (s->lock) PyThread_free_lock(s->lock);
    solver_pt_clear(s);
    free(s->tt);
    free(s->near);
    free(s->wc);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static PyObject *ns_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    PyObject *lv, *rules;
    if (!core_ready()) return NULL;
    if (!PyArg_ParseTuple(args, "OO", &lv, &rules)) return NULL;
    NSolver *s = (NSolver *)type->tp_alloc(type, 0);
    if (!s) return NULL;
    if (py_level(lv, &s->level) < 0 || py_rules(rules, &s->ru) < 0) {
        Py_DECREF(s);
        return NULL;
    }
    s->lock = PyThread_allocate_lock();
    if (!s->lock) {
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
    s->dd = s->ru.plus4 ? 4 : 3;
    s->tt_cap = (size_t)1 << TT_START_BITS;
    s->tt = solver_table(s->tt_cap, sizeof(tentry));
    s->near_cap = (size_t)1 << TT_START_BITS;
    s->near = solver_table(s->near_cap, sizeof(tentry));
    if (!s->tt || !s->near) {
        Py_DECREF(s);
        return PyErr_NoMemory();
    }
    return (PyObject *)s;
}

/* the hands of a position: 4 valid Cards, each of at most 27 cards, no card more than twice in
 * the four (two packs); a GuandanError otherwise */
static int position_hands(PyObject *v, cset h[4]) {
    PyObject *seq = PySequence_Tuple(v);
    if (!seq || PyTuple_GET_SIZE(seq) != 4) {
        Py_XDECREF(seq);
        PyErr_Clear();
        PyErr_Format(S.e_guandan, "a position has 4 hands");
        return -1;
    }
    for (int i = 0; i < 4; i++)
        if (py_to_cs(PyTuple_GET_ITEM(seq, i), &h[i], "hand") < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    cset left = cs_two_packs();
    for (int i = 0; i < 4; i++) {
        if (cs_size(h[i]) > HAND_SIZE) {
            PyErr_Format(S.e_guandan, "not a position that can occur in a deal: a hand of %d cards (at most %d)",
                         cs_size(h[i]), HAND_SIZE);
            return -1;
        }
        if (!cs_subset(h[i], left)) {
            PyErr_Format(S.e_guandan, "not a position that can occur in a deal: the hands hold a card more "
                         "than twice (two packs)");
            return -1;
        }
        left = cs_sub(left, h[i]);
    }
    return 0;
}

/* value(hands, turn, to_beat, last, passes, first, out, max_nodes, max_seconds, probe)
 *   -> (value or None, stop reason, nodes, lookups, hits); probe 0 asks the value, any other
 *   possible value t only "at least t?" (the value is then 1 or 0) */
static PyObject *ns_value(NSolver *s, PyObject *const *a, Py_ssize_t n) {
    if (n != 10) return PyErr_Format(PyExc_TypeError, "value takes 10 arguments, got %zd", n);
    hands_t hs;
    if (position_hands(a[0], hs.h) < 0) return NULL;
    int turn, last, passes, first, out;
    if (small_int(a[1], 0, 3, &turn) < 0 || small_int(a[3], -1, 3, &last) < 0 || small_int(a[4], 0, 3, &passes) < 0 ||
        small_int(a[5], -1, 3, &first) < 0 || small_int(a[6], 0, 15, &out) < 0)
        return PyErr_Format(S.e_guandan, "not a position: turn 0..3, last -1..3, passes 0..3, first -1..3, out 0..15");
    play_t tb;
    int has_tb = a[2] != Py_None;
    if (has_tb && py_to_play(a[2], &tb, "play to beat", 1) < 0) return NULL;
    for (int i = 0; i < 4; i++)
        if (((out >> i) & 1) != cs_empty(hs.h[i]))
            return PyErr_Format(S.e_guandan, "not a position: the players out are those with no cards");
    if (cs_empty(hs.h[turn]) || (has_tb != (last >= 0)) || (POP13[out] > 1 && first < 0) ||
        (first >= 0 && !((out >> first) & 1)) || (out && first < 0) || ((out >> 0 & 1) && (out >> 2 & 1)) ||
        ((out >> 1 & 1) && (out >> 3 & 1)))
        return PyErr_Format(S.e_guandan, "not a position that can occur in a deal");
    long long max_nodes = 0;
    if (a[7] != Py_None) {
        max_nodes = PyLong_AsLongLong(a[7]);
        if (max_nodes < 0 || PyErr_Occurred()) {
            PyErr_Clear();
            return PyErr_Format(S.e_guandan, "max_nodes must be a non-negative int or None");
        }
    }
    double max_seconds = 0;
    if (a[8] != Py_None) {
        max_seconds = PyFloat_AsDouble(a[8]);
        if (PyErr_Occurred() || max_seconds < 0) {
            PyErr_Clear();
            return PyErr_Format(S.e_guandan, "max_seconds must be a non-negative number or None");
        }
    }
    int probe = 0;
    if (small_int(a[9], -4, 4, &probe) < 0 || (probe && (probe < -s->dd || probe > s->dd)))
        return PyErr_Format(S.e_guandan, "probe must be 0 or a possible value of a deal");
    solver_hands(&hs, s->level);
    ns_lock(s);
    long long n0 = s->nodes, l0 = s->lookups, h0 = s->hits;
    s->deadline = a[8] != Py_None ? solver_now() + max_seconds : 0.0;
    s->node_limit = a[7] != Py_None ? s->nodes + max_nodes : 0;
    s->next_check = s->nodes;
    s->stop = 0;
    int vals[6] = {-s->dd, -2, -1, 1, 2, s->dd}, lo = 0, hi = 5;
    int32_t sig = has_tb ? solver_beat_sig(&tb) : -1;
    if (has_tb) {
        uint8_t tt_[32], rr_[32];
        int k = reading_keys(tb.cards, s->level, &s->ru, tt_, rr_), ok = 0;
        for (int i = 0; i < k; i++)
            if (tt_[i] == tb.type && rr_[i] == tb.rank) ok = 1;
        if (!ok) {
            PyThread_release_lock(s->lock);
            return PyErr_Format(S.e_guandan, "the play to beat is no reading of its cards");
        }
    }
    int answer = 0;
    Py_BEGIN_ALLOW_THREADS
    if (probe) /* at_least(t) only: one question of the bisection */
        answer = solver_ge(s, &hs, turn, has_tb ? &tb : NULL, sig, last, passes, first, out, probe) > 0;
    else while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        int r = solver_ge(s, &hs, turn, has_tb ? &tb : NULL, sig, last, passes, first, out, vals[mid]);
        if (r < 0) break;
        if (r) lo = mid;
        else hi = mid - 1;
    }
    Py_END_ALLOW_THREADS
    int stop = s->stop;
    long long dn = s->nodes - n0, dl = s->lookups - l0, dh = s->hits - h0;
    PyThread_release_lock(s->lock);
    if (stop == 3) return PyErr_NoMemory();
    PyObject *v = stop ? Py_None : PyLong_FromLong(probe ? answer : vals[lo]);
    if (!stop && !v) return NULL;
    if (stop) Py_INCREF(v);
    return Py_BuildValue("(NiLLL)", v, stop, dn, dl, dh);
}

static PyObject *ns_clear(NSolver *s, PyObject *unused) {
    (void)unused;
    ns_lock(s);
    solver_pt_clear(s);
    memset(s->tt, 0, sizeof(tentry) * s->tt_cap);
    memset(s->near, 0, sizeof(tentry) * s->near_cap);
    s->near_n = 0;
    s->tt_n = 0;
    free(s->wc);
    s->wc = NULL;
    s->wc_cap = s->wc_n = 0;
    PyThread_release_lock(s->lock);
    Py_RETURN_NONE;
}

/* grouped(hand, to_beat) -> [(Combo, left)]: the plays the search tries, in its order */
static PyObject *ns_grouped(NSolver *s, PyObject *const *a, Py_ssize_t n) {
    if (n != 2) return PyErr_Format(PyExc_TypeError, "grouped takes 2 arguments, got %zd", n);
    cset hand;
    play_t tb;
    int has_tb = a[1] != Py_None;
    if (py_to_cs(a[0], &hand, "hand") < 0 || (has_tb && py_to_play(a[1], &tb, "play to beat", 1) < 0))
        return NULL;
    if (cs_size(hand) > HAND_SIZE)
        return PyErr_Format(S.e_guandan, "a hand holds at most %d cards, not %d", HAND_SIZE, cs_size(hand));
    splay *v;
    int nb;
    ns_lock(s);
    int k = solver_group_plays(s, hand, has_tb ? &tb : NULL, &v, &nb);
    PyThread_release_lock(s->lock);
    if (k < 0) return PyErr_NoMemory();
    PyObject *out = PyList_New(k);
    for (int i = 0; out && i < k; i++) {
        play_t pl = solver_play(hand, &v[i]);
        PyObject *c = play_to_py(&pl), *l = cs_to_py(v[i].left);
        PyObject *t = c && l ? PyTuple_Pack(2, c, l) : NULL;
        Py_XDECREF(c);
        Py_XDECREF(l);
        if (!t) { Py_CLEAR(out); break; }
        PyList_SET_ITEM(out, i, t);
    }
    free(v);
    return out;
}

static PyMethodDef ns_methods[] = {
    {"grouped", (PyCFunction)(void (*)(void))ns_grouped, METH_FASTCALL,
     "grouped(hand, to_beat) -> [(Combo, left)]: the plays searched, one per class, in order"},
    {"value", (PyCFunction)(void (*)(void))ns_value, METH_FASTCALL,
     "value(hands, turn, to_beat, last, passes, first, out, max_nodes, max_seconds, probe) -> "
     "(value or None, stop: 0 / 1 nodes / 2 time, nodes, lookups, hits); probe t: at least t? (1 / 0)"},
    {"clear", (PyCFunction)ns_clear, METH_NOARGS, "Forget the tables."},
    {NULL}};

static PyTypeObject NSolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "duplicate.analysis._native._solver.Solver",
    .tp_basicsize = sizeof(NSolver),
    .tp_dealloc = (destructor)ns_dealloc,
    .tp_new = ns_new,
    .tp_methods = ns_methods,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Solver(level, rules): analysis.solver.Solver's search, its tables kept between calls.",
};

static PyObject *f_init(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    return core_init(a, n);
}

static PyMethodDef methods[] = {
    {"_init", (PyCFunction)(void (*)(void))f_init, METH_FASTCALL,
     "_init(...): as engine._native._core._init (engine.core calls both)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "duplicate.analysis._native._solver",
                                       "The exact solver's compiled search (docs/CORE.md).", -1, methods,
                                       NULL, NULL, NULL, NULL};

#ifndef CORE_SOURCE_HASH
#define CORE_SOURCE_HASH "" /* a build by hand: not checked against the sources */
#endif

PyMODINIT_FUNC PyInit__solver(void) {
    core_tables_init();
    if (PyType_Ready(&NSolverType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&moduledef);
    if (!mod) return NULL;
    Py_INCREF(&NSolverType);
    if (PyModule_AddObject(mod, "Solver", (PyObject *)&NSolverType) < 0) {
        Py_DECREF(&NSolverType);
        Py_DECREF(mod);
        return NULL;
    }
    if (PyModule_AddIntConstant(mod, "API_VERSION", CORE_API_VERSION) < 0 ||
        PyModule_AddStringConstant(mod, "SOURCE_HASH", CORE_SOURCE_HASH) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}

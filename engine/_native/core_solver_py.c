/* The exact solver's Python type (engine._native._core.Solver); the search is core_solver.c. */
#include "core_solver.h"
#include <stdlib.h>
#include <string.h>

/* ---- Python type ----------------------------------------------------------------------- */

static void ns_dealloc(NSolver *s) {
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

/* value(hands, turn, to_beat, last, passes, first, out, max_nodes, max_seconds)
 *   -> (value or None, stop reason, nodes, lookups, hits) */
static PyObject *ns_value(NSolver *s, PyObject *const *a, Py_ssize_t n) {
    if (n != 9) return PyErr_Format(PyExc_TypeError, "value takes 9 arguments, got %zd", n);
    hands_t hs;
    PyObject *seq = PySequence_Fast(a[0], "");
    if (!seq || PySequence_Fast_GET_SIZE(seq) != 4) {
        Py_XDECREF(seq);
        PyErr_Clear();
        return PyErr_Format(S.e_guandan, "a position has 4 hands");
    }
    for (int i = 0; i < 4; i++)
        if (py_to_cs(PySequence_Fast_GET_ITEM(seq, i), &hs.h[i], "hand") < 0) {
            Py_DECREF(seq);
            return NULL;
        }
    Py_DECREF(seq);
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
    solver_hands(&hs, s->level);
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
        if (!ok) return PyErr_Format(S.e_guandan, "the play to beat is no reading of its cards");
    }
    if (s->probe) { /* at_least(t) only: the bisection pinned to one question */
        int t = s->probe, r;
        s->probe = 0;
        r = solver_ge(s, &hs, turn, has_tb ? &tb : NULL, sig, last, passes, first, out, t);
        return Py_BuildValue("(iLLL)", r, s->nodes - n0, s->lookups - l0, s->hits - h0);
    }
    Py_BEGIN_ALLOW_THREADS
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        int r = solver_ge(s, &hs, turn, has_tb ? &tb : NULL, sig, last, passes, first, out, vals[mid]);
        if (r < 0) break;
        if (r) lo = mid;
        else hi = mid - 1;
    }
    Py_END_ALLOW_THREADS
    if (s->stop == 3) return PyErr_NoMemory();
    PyObject *v = s->stop ? Py_None : PyLong_FromLong(vals[lo]);
    if (!s->stop && !v) return NULL;
    if (s->stop) Py_INCREF(v);
    return Py_BuildValue("(NiLLL)", v, s->stop, s->nodes - n0, s->lookups - l0, s->hits - h0);
}

static PyObject *ns_clear(NSolver *s, PyObject *unused) {
    (void)unused;
    solver_pt_clear(s);
    memset(s->tt, 0, sizeof(tentry) * s->tt_cap);
    memset(s->near, 0, sizeof(tentry) * s->near_cap);
    s->near_n = 0;
    s->tt_n = 0;
    free(s->wc);
    s->wc = NULL;
    s->wc_cap = s->wc_n = 0;
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
    splay *v;
    int nb;
    int k = solver_group_plays(s, hand, has_tb ? &tb : NULL, &v, &nb);
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

static PyObject *ns_probe(NSolver *s, PyObject *arg) {
    s->probe = (int)PyLong_AsLong(arg);
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NONE;
}

static PyMethodDef ns_methods[] = {
    {"probe", (PyCFunction)ns_probe, METH_O, "Debugging: make the next value() answer at_least(t) only."},
    {"grouped", (PyCFunction)(void (*)(void))ns_grouped, METH_FASTCALL,
     "grouped(hand, to_beat) -> [(Combo, left)]: the plays searched, one per class, in order"},
    {"value", (PyCFunction)(void (*)(void))ns_value, METH_FASTCALL,
     "value(hands, turn, to_beat, last, passes, first, out, max_nodes, max_seconds) -> "
     "(value or None, stop: 0 / 1 nodes / 2 time, nodes, lookups, hits)"},
    {"clear", (PyCFunction)ns_clear, METH_NOARGS, "Forget the tables."},
    {NULL}};

PyTypeObject NSolverType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native._core.Solver",
    .tp_basicsize = sizeof(NSolver),
    .tp_dealloc = (destructor)ns_dealloc,
    .tp_new = ns_new,
    .tp_methods = ns_methods,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Solver(level, rules): analysis.solver.Solver's search, its tables kept between calls.",
};

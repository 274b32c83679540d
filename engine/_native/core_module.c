/* The Python module engine._native._core: conversions, readings and legal plays.
 *
 * Every entry point checks its arguments and raises the engine's own errors (the classes
 * engine.core hands over at import through _init); nothing a caller passes reaches the
 * generators unchecked. Plays are kept packed in a PlayList; a Combo is made only when an
 * item is asked for. */
#include "core_py.h"
#include <string.h>


/* ---- functions ------------------------------------------------------------------------- */

static int gen_args(PyObject *const *a, Py_ssize_t n, Py_ssize_t want, cset *hand, int *level,
                    play_t *tb, int *has_tb, rules_t *ru) {
    if (!core_ready()) return -1;
    if (n != want) {
        PyErr_Format(PyExc_TypeError, "expected %zd arguments, got %zd", want, n);
        return -1;
    }
    if (py_to_cs(a[0], hand, "hand") < 0 || py_level(a[1], level) < 0) return -1;
    *has_tb = a[2] != Py_None;
    if (*has_tb && py_to_play(a[2], tb, "play to beat", 1) < 0) return -1;
    return py_rules(a[3], ru);
}

static int run_generate(cset hand, int level, const play_t *tb, const rules_t *ru, int first_only, plist *l) {
    int rc;
    if (!tb && !first_only) {
        Py_BEGIN_ALLOW_THREADS
        rc = generate(hand, level, tb, ru, first_only, l);
        Py_END_ALLOW_THREADS
    } else {
        rc = generate(hand, level, tb, ru, first_only, l);
    }
    if (rc < 0) {
        plist_free(l);
        PyErr_NoMemory();
    }
    return rc;
}

/* plays(hand, level, to_beat, rules, concrete) -> PlayList */
static PyObject *f_plays(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    cset hand; int level, has_tb; play_t tb; rules_t ru;
    if (gen_args(a, n, 5, &hand, &level, &tb, &has_tb, &ru) < 0) return NULL;
    int concrete = PyObject_IsTrue(a[4]);
    if (concrete < 0) return NULL;
    plist l = {0};
    if (run_generate(hand, level, has_tb ? &tb : NULL, &ru, !concrete, &l) < 0) {
        plist_free(&l);
        return NULL;
    }
    return playlist_new(&l);
}

/* legal_readings(hand, level, to_beat, rules) -> list[Combo] */
static PyObject *f_legal_readings(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    cset hand; int level, has_tb; play_t tb; rules_t ru;
    if (gen_args(a, n, 4, &hand, &level, &tb, &has_tb, &ru) < 0) return NULL;
    plist l = {0};
    if (run_generate(hand, level, has_tb ? &tb : NULL, &ru, 1, &l) < 0) return NULL;
    PyObject *out = PyList_New((Py_ssize_t)l.n);
    if (out) {
        for (size_t i = 0; i < l.n; i++) {
            PyObject *c = play_to_py(&l.v[i]);
            if (!c) { Py_CLEAR(out); break; }
            PyList_SET_ITEM(out, (Py_ssize_t)i, c);
        }
    }
    plist_free(&l);
    return out;
}

static int reading_args(PyObject *const *a, Py_ssize_t n, cset *c, int *level, rules_t *ru) {
    if (!core_ready()) return -1;
    if (n != 3) {
        PyErr_Format(PyExc_TypeError, "expected 3 arguments, got %zd", n);
        return -1;
    }
    if (py_to_cs(a[0], c, "cards") < 0 || py_level(a[1], level) < 0) return -1;
    return py_rules(a[2], ru);
}

/* reading_keys(cards, level, rules) -> list[(ComboType, rank)] */
static PyObject *f_reading_keys(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    cset c; int level; rules_t ru;
    if (reading_args(a, n, &c, &level, &ru) < 0) return NULL;
    uint8_t t[32], r[32];
    int k = reading_keys(c, level, &ru, t, r);
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int i = 0; i < k; i++) {
        PyObject *p = Py_BuildValue("(Oi)", S.types[t[i]], r[i]);
        if (!p) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, p);
    }
    return out;
}

/* readings(cards, level, rules) -> list[Combo] */
static PyObject *f_readings(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    cset c; int level; rules_t ru;
    if (reading_args(a, n, &c, &level, &ru) < 0) return NULL;
    uint8_t t[32], r[32];
    int k = reading_keys(c, level, &ru, t, r);
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int i = 0; i < k; i++) {
        play_t p = {c, t[i], r[i], 0};
        PyObject *o = play_to_py(&p);
        if (!o) { Py_DECREF(out); return NULL; }
        PyList_SET_ITEM(out, i, o);
    }
    return out;
}

/* is_legal(hand, combo, level, to_beat, rules) -> bool */
static PyObject *f_is_legal(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    if (!core_ready()) return NULL;
    if (n != 5) return PyErr_Format(PyExc_TypeError, "expected 5 arguments, got %zd", n);
    cset hand; int level; play_t tb, p; rules_t ru;
    if (py_to_cs(a[0], &hand, "hand") < 0 || py_level(a[2], &level) < 0) return NULL;
    int has_tb = a[3] != Py_None;
    if (has_tb && py_to_play(a[3], &tb, "play to beat", 1) < 0) return NULL;
    if (py_rules(a[4], &ru) < 0 || py_to_play(a[1], &p, "play", 0) < 0) return NULL;
    if (!cs_subset(p.cards, hand)) Py_RETURN_FALSE;
    uint8_t t[32], r[32];
    int k = reading_keys(p.cards, level, &ru, t, r), found = 0;
    for (int i = 0; i < k; i++)
        if (t[i] == p.type && r[i] == p.rank) found = 1;
    if (!found) Py_RETURN_FALSE;
    if (has_tb && !combo_beats(&p, &tb, level)) Py_RETURN_FALSE;
    Py_RETURN_TRUE;
}

static PyObject *f_init(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    return core_init(a, n);
}

static PyMethodDef methods[] = {
    {"_init", (PyCFunction)(void (*)(void))f_init, METH_FASTCALL,
     "_init(Combo, ComboType, types, seats, GuandanError, InvalidCardError, InvalidComboError, "
     "IllegalPlayError, OutOfTurnError, GameOverError, Ruleset)"},
    {"plays", (PyCFunction)(void (*)(void))f_plays, METH_FASTCALL,
     "plays(hand, level, to_beat, rules, concrete) -> PlayList"},
    {"legal_readings", (PyCFunction)(void (*)(void))f_legal_readings, METH_FASTCALL,
     "legal_readings(hand, level, to_beat, rules) -> list[Combo]"},
    {"reading_keys", (PyCFunction)(void (*)(void))f_reading_keys, METH_FASTCALL,
     "reading_keys(cards, level, rules) -> list[(ComboType, rank)]"},
    {"readings", (PyCFunction)(void (*)(void))f_readings, METH_FASTCALL,
     "readings(cards, level, rules) -> list[Combo]"},
    {"is_legal", (PyCFunction)(void (*)(void))f_is_legal, METH_FASTCALL,
     "is_legal(hand, combo, level, to_beat, rules) -> bool"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "engine._native._core",
                                       "The compiled Guandan core (see docs/CORE.md).", -1, NULL};

PyMODINIT_FUNC PyInit__core(void) {
    core_tables_init();
    if (playlist_ready() < 0) return NULL;
    moduledef.m_methods = methods;
    PyObject *mod = PyModule_Create(&moduledef);
    if (!mod) return NULL;
    if (PyModule_AddFunctions(mod, DEAL_METHODS) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
#ifndef CORE_SOURCE_HASH
#define CORE_SOURCE_HASH "" /* a build by hand: not checked against the sources */
#endif
    if (PyModule_AddStringConstant(mod, "SOURCE_HASH", CORE_SOURCE_HASH) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    if (playlist_add(mod) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    /* engine/core.py refuses a build of another API (a stale build after an update) */
    if (PyModule_AddIntConstant(mod, "API_VERSION", CORE_API_VERSION) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}

/* The Python module engine._native._core: conversions, readings and legal plays.
 *
 * Every entry point checks its arguments and raises the engine's own errors (the classes
 * engine.core hands over at import through _init); nothing a caller passes reaches the
 * generators unchecked. Plays are kept packed in a PlayList; a Combo is made only when an
 * item is asked for. */
#include "core_py.h"
#include <string.h>

/* ---- PlayList: packed plays, Combos on demand ------------------------------------------ */

typedef struct {
    PyObject_HEAD
    plist l;
} PlayList;

static void pl_dealloc(PlayList *self) {
    plist_free(&self->l);
    Py_TYPE(self)->tp_free((PyObject *)self);
}
static Py_ssize_t pl_len(PlayList *self) { return (Py_ssize_t)self->l.n; }
static PyObject *pl_item(PlayList *self, Py_ssize_t i) {
    if (i < 0 || (size_t)i >= self->l.n) {
        PyErr_SetString(PyExc_IndexError, "PlayList index out of range");
        return NULL;
    }
    return play_to_py(&self->l.v[i]);
}
static PyObject *pl_key(PlayList *self, PyObject *arg) {
    Py_ssize_t i = PyLong_AsSsize_t(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || (size_t)i >= self->l.n) {
        PyErr_SetString(PyExc_IndexError, "PlayList index out of range");
        return NULL;
    }
    const play_t *p = &self->l.v[i];
    return Py_BuildValue("(ii)", p->type, p->rank);
}
static PyObject *pl_types(PlayList *self, PyObject *unused) {
    (void)unused;
    long n[N_TYPES] = {0};
    for (size_t i = 0; i < self->l.n; i++) n[self->l.v[i].type]++;
    PyObject *t = PyTuple_New(N_TYPES);
    if (!t) return NULL;
    for (int k = 0; k < N_TYPES; k++) {
        PyObject *x = PyLong_FromLong(n[k]);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, k, x);
    }
    return t;
}
/* the plays as a list of Combos */
static PyObject *pl_list(PlayList *self, size_t start, size_t step, size_t n) {
    PyObject *out = PyList_New((Py_ssize_t)n);
    for (size_t k = 0; out && k < n; k++) {
        PyObject *c = play_to_py(&self->l.v[start + k * step]);
        if (!c) Py_CLEAR(out);
        else PyList_SET_ITEM(out, (Py_ssize_t)k, c);
    }
    return out;
}
/* pl[i] (negative from the end) and pl[a:b:c] (a list, as a list's slice is) */
static PyObject *pl_subscript(PlayList *self, PyObject *key) {
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0) return NULL;
        Py_ssize_t n = PySlice_AdjustIndices((Py_ssize_t)self->l.n, &start, &stop, step);
        PyObject *out = PyList_New(n);
        for (Py_ssize_t k = 0; out && k < n; k++) {
            PyObject *c = play_to_py(&self->l.v[start + k * step]);
            if (!c) Py_CLEAR(out);
            else PyList_SET_ITEM(out, k, c);
        }
        return out;
    }
    Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0) i += (Py_ssize_t)self->l.n;
    return pl_item(self, i);
}
/* equal to a list (or PlayList) of the same plays, as a list is */
static PyObject *pl_richcompare(PlayList *self, PyObject *other, int op) {
    if ((op != Py_EQ && op != Py_NE) || !(PyList_Check(other) || Py_IS_TYPE(other, Py_TYPE(self))))
        Py_RETURN_NOTIMPLEMENTED;
    PyObject *a = pl_list(self, 0, 1, self->l.n), *b = NULL, *r = NULL;
    if (!a) return NULL;
    if (PyList_Check(other)) {
        b = other;
        Py_INCREF(b);
    } else {
        b = pl_list((PlayList *)other, 0, 1, ((PlayList *)other)->l.n);
    }
    if (b) r = PyObject_RichCompare(a, b, op);
    Py_DECREF(a);
    Py_XDECREF(b);
    return r;
}
/* index / count: a list's, on the Combos */
static PyObject *pl_by_list(PlayList *self, const char *name, PyObject *args) {
    PyObject *l = pl_list(self, 0, 1, self->l.n), *f = NULL, *r = NULL;
    if (l) f = PyObject_GetAttrString(l, name);
    if (f) r = PyObject_Call(f, args, NULL);
    Py_XDECREF(f);
    Py_XDECREF(l);
    return r;
}
static PyObject *pl_index(PlayList *self, PyObject *args) { return pl_by_list(self, "index", args); }
static PyObject *pl_count(PlayList *self, PyObject *args) { return pl_by_list(self, "count", args); }

static PySequenceMethods pl_seq = {.sq_length = (lenfunc)pl_len, .sq_item = (ssizeargfunc)pl_item};
static PyMappingMethods pl_map = {.mp_length = (lenfunc)pl_len, .mp_subscript = (binaryfunc)pl_subscript};
static PyMethodDef pl_methods[] = {
    {"index", (PyCFunction)pl_index, METH_VARARGS, "index(play[, start[, stop]]): as list.index."},
    {"count", (PyCFunction)pl_count, METH_VARARGS, "count(play): as list.count."},
    {"key", (PyCFunction)pl_key, METH_O, "(type index, rank) of play i, without a Combo."},
    {"type_counts", (PyCFunction)pl_types, METH_NOARGS, "Number of plays of each type, by type index."},
    {NULL}};
static PyTypeObject PlayListType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._native._core.PlayList",
    .tp_basicsize = sizeof(PlayList),
    .tp_dealloc = (destructor)pl_dealloc,
    .tp_as_sequence = &pl_seq,
    .tp_as_mapping = &pl_map,
    .tp_richcompare = (richcmpfunc)pl_richcompare,
    .tp_hash = PyObject_HashNotImplemented,
    .tp_methods = pl_methods,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Legal plays kept packed (type, rank, cards); a Combo is made per item asked for. "
              "A collections.abc.Sequence (engine.core registers it), equal to a list of the same plays.",
};

/* a PlayList owning `l` (taken over: emptied here, freed on failure) */
PyObject *playlist_new(plist *l) {
    PlayList *pl = PyObject_New(PlayList, &PlayListType);
    if (!pl) {
        plist_free(l);
        return NULL;
    }
    pl->l = *l;
    memset(l, 0, sizeof *l);
    return (PyObject *)pl;
}

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
    PlayList *pl = PyObject_New(PlayList, &PlayListType);
    if (!pl) return NULL;
    memset(&pl->l, 0, sizeof pl->l);
    if (run_generate(hand, level, has_tb ? &tb : NULL, &ru, !concrete, &pl->l) < 0) {
        Py_DECREF(pl);
        return NULL;
    }
    return (PyObject *)pl;
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
    if (PyType_Ready(&PlayListType) < 0) return NULL;
    size_t nm = sizeof methods / sizeof methods[0] - 1, nd = 0, np = 0, na = 0, nq = 0;
    while (DEAL_METHODS[nd].ml_name) nd++;
    while (PLAN_METHODS[np].ml_name) np++;
    while (ARENA_METHODS[na].ml_name) na++;
    while (PLAYOUT_METHODS[nq].ml_name) nq++;
    static PyMethodDef all[64];
    if (nm + nd + np + na + nq + 1 > sizeof all / sizeof all[0]) {
        PyErr_SetString(PyExc_SystemError, "engine._native: too many methods for the table");
        return NULL;
    }
    memcpy(all, methods, nm * sizeof(PyMethodDef));
    memcpy(all + nm, DEAL_METHODS, nd * sizeof(PyMethodDef));
    memcpy(all + nm + nd, PLAN_METHODS, np * sizeof(PyMethodDef));
    memcpy(all + nm + nd + np, ARENA_METHODS, na * sizeof(PyMethodDef));
    memcpy(all + nm + nd + np + na, PLAYOUT_METHODS, (nq + 1) * sizeof(PyMethodDef));
    moduledef.m_methods = all;
    PyObject *mod = PyModule_Create(&moduledef);
    if (!mod) return NULL;
#ifndef CORE_SOURCE_HASH
#define CORE_SOURCE_HASH "" /* a build by hand: not checked against the sources */
#endif
    if (PyModule_AddStringConstant(mod, "SOURCE_HASH", CORE_SOURCE_HASH) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    Py_INCREF(&PlayListType);
    if (PyModule_AddObject(mod, "PlayList", (PyObject *)&PlayListType) < 0) {
        Py_DECREF(&PlayListType);
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

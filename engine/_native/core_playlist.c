/* PlayList: legal plays kept packed, a Combo made per item asked for; a Sequence equal to
 * the list of its plays. Compiled into every extension that returns plays. */
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
    /* another module's PlayList (each extension has its own copy of the type) counts too */
    int peer = strcmp(Py_TYPE(other)->tp_name, Py_TYPE(self)->tp_name) == 0;
    if ((op != Py_EQ && op != Py_NE) || !(PyList_Check(other) || peer)) Py_RETURN_NOTIMPLEMENTED;
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

int playlist_ready(void) { return PyType_Ready(&PlayListType); }

int playlist_add(PyObject *mod) {
    Py_INCREF(&PlayListType);
    if (PyModule_AddObject(mod, "PlayList", (PyObject *)&PlayListType) < 0) {
        Py_DECREF(&PlayListType);
        return -1;
    }
    return 0;
}

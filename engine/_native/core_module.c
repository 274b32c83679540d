/* The Python module engine._native._core: conversions, readings and legal plays.
 *
 * Every entry point checks its arguments and raises the engine's own errors (the classes
 * engine.core hands over at import through _init); nothing a caller passes reaches the
 * generators unchecked. Plays are kept packed in a PlayList; a Combo is made only when an
 * item is asked for. */
#include "core_py.h"
#include <string.h>
#include <structmember.h>

core_state S;
const char *const TYPE_NAMES[N_TYPES] = COMBO_RECORD_NAMES;

int core_ready(void) {
    if (!S.ready) {
        PyErr_SetString(PyExc_RuntimeError, "engine._native._core used before _init");
        return 0;
    }
    return 1;
}

/* repr(v) for a message; tuples by tuple's repr (a malformed Combo cannot repr itself) */
static PyObject *shown(PyObject *v) {
    PyObject *r = PyTuple_Check(v) ? PyTuple_Type.tp_repr(v) : PyObject_Repr(v);
    if (!r) {
        PyErr_Clear();
        r = PyUnicode_FromFormat("<%s>", Py_TYPE(v)->tp_name);
    }
    return r;
}

/* raise cls(fmt % (first, repr(v), ...)): fmt has "%s" then "%U" */
#define RAISE_SHOWN(cls, fmt, first, v, ...)                      \
    do {                                                          \
        PyObject *shown_ = shown(v);                              \
        if (shown_) {                                             \
            PyErr_Format((cls), (fmt), (first), shown_, ##__VA_ARGS__); \
            Py_DECREF(shown_);                                    \
        }                                                         \
    } while (0)

#define M60 ((1ull << 60) - 1)

int py_to_cs(PyObject *v, cset *out, const char *what) {
    if (!PyLong_Check(v)) goto bad;
    int sign = _PyLong_Sign(v);
    if (sign < 0) goto bad;
    unsigned char b[24];
#if PY_VERSION_HEX >= 0x030D0000
    if (_PyLong_AsByteArray((PyLongObject *)v, b, 24, 1, 0, 1) < 0) {
#else
    if (_PyLong_AsByteArray((PyLongObject *)v, b, 24, 1, 0) < 0) {
#endif
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear();
        goto bad;
    }
    uint64_t q0 = 0, q1 = 0, q2 = 0;
    for (int i = 7; i >= 0; i--) {
        q0 = (q0 << 8) | b[i];
        q1 = (q1 << 8) | b[8 + i];
        q2 = (q2 << 8) | b[16 + i];
    }
    if (q2 >> 34) goto bad;
    out->w[0] = q0 & M60;
    out->w[1] = ((q0 >> 60) | (q1 << 4)) & M60;
    out->w[2] = (q1 >> 56) | (q2 << 8);
    if (!cs_valid(*out)) goto bad;
    return 0;
bad:
    RAISE_SHOWN(S.e_card, "%s %U is not a valid Cards value (54 kinds, each at most twice)", what, v);
    return -1;
}

PyObject *cs_to_py(cset c) {
    uint64_t q0 = c.w[0] | (c.w[1] << 60);
    uint64_t q1 = (c.w[1] >> 4) | (c.w[2] << 56);
    uint64_t q2 = c.w[2] >> 8;
    if (!q1 && !q2) return PyLong_FromUnsignedLongLong(q0);
#if PY_VERSION_HEX < 0x030C0000 && PyLong_SHIFT == 30
    /* 3.11: fill the int's 30-bit digits directly (no byte loop, no normalisation pass) */
    {
        int bits = q2 ? 128 + 64 - __builtin_clzll(q2) : 64 + 64 - __builtin_clzll(q1);
        Py_ssize_t nd = (bits + 29) / 30;
        PyLongObject *v = _PyLong_New(nd);
        if (!v) return NULL;
        for (Py_ssize_t i = 0; i < nd; i++) {
            int at = 30 * (int)i, w = at >> 6, sh = at & 63;
            uint64_t q[3] = {q0, q1, q2};
            uint64_t x = q[w] >> sh;
            if (sh > 34 && w < 2) x |= q[w + 1] << (64 - sh);
            v->ob_digit[i] = (digit)(x & PyLong_MASK);
        }
        return (PyObject *)v;
    }
#endif
    unsigned char b[24];
    for (int i = 0; i < 8; i++) {
        b[i] = (unsigned char)(q0 >> (8 * i));
        b[8 + i] = (unsigned char)(q1 >> (8 * i));
        b[16 + i] = (unsigned char)(q2 >> (8 * i));
    }
    return _PyLong_FromByteArray(b, 24, 1, 0);
}

int py_level(PyObject *v, int *level) {
    if (PyLong_Check(v)) {
        int overflow = 0;
        long x = PyLong_AsLongAndOverflow(v, &overflow);
        if (!overflow && x >= 0 && x <= 12) {
            *level = (int)x;
            return 0;
        }
        PyErr_Clear();
    }
    RAISE_SHOWN(S.e_card, "%sinvalid level %U: a level is a rank index 0..12 (2..A)", "", v);
    return -1;
}

/* the rule variants the core reads, in rules_t's order, and their ranges */
static const char *const RULE_FIELDS[4] = {"joker_pair_in_full_house", "bomb_max", "jiefeng_next",
                                           "double_down_plus4"};
static const long RULE_LO[4] = {0, 4, 0, 0}, RULE_HI[4] = {1, 10, 1, 1};

static int rule_field(PyObject *o, int i, PyObject *a, long *out) {
    if (!a) {
        PyErr_Clear();
        RAISE_SHOWN(S.e_guandan, "%s%U is not a Ruleset (no %s)", "", o, RULE_FIELDS[i]);
        return -1;
    }
    int overflow = 0;
    long x = PyLong_Check(a) ? PyLong_AsLongAndOverflow(a, &overflow) : RULE_LO[i] - 1;
    if (overflow || x < RULE_LO[i] || x > RULE_HI[i]) {
        PyErr_Clear();
        RAISE_SHOWN(S.e_guandan, "%s%U: %s must be an int in %ld..%ld", "", o, RULE_FIELDS[i], RULE_LO[i],
                    RULE_HI[i]);
        return -1;
    }
    *out = x;
    return 0;
}

/* the rules `v` says, read at every call (a cache by identity would miss a changed object):
 * a Ruleset's slots in place (no Python code runs), any other object's attributes */
int py_rules(PyObject *v, rules_t *out) {
    long x[4];
    if (Py_IS_TYPE(v, S.ruleset) && S.rule_off[0]) {
        for (int i = 0; i < 4; i++) {
            PyObject *a = *(PyObject **)((char *)v + S.rule_off[i]);
            if (rule_field(v, i, a, &x[i]) < 0) return -1;
        }
    } else {
        for (int i = 0; i < 4; i++) {
            PyObject *a = PyObject_GetAttrString(v, RULE_FIELDS[i]);
            int r = rule_field(v, i, a, &x[i]);
            Py_XDECREF(a);
            if (r < 0) return -1;
        }
    }
    out->jp = (int)x[0];
    out->bomb_max = (int)x[1];
    out->jiefeng_next = (int)x[2];
    out->plus4 = (int)x[3];
    return 0;
}

/* where a Ruleset keeps each field the core reads: its slots' offsets, or all 0 (then the
 * attributes are read by name) */
static int rule_offsets(PyTypeObject *t) {
    Py_ssize_t off[4];
    for (int i = 0; i < 4; i++) {
        PyObject *d = PyObject_GetAttrString((PyObject *)t, RULE_FIELDS[i]);
        if (!d) return -1;
        int slot = Py_IS_TYPE(d, &PyMemberDescr_Type) &&
                   ((PyMemberDescrObject *)d)->d_member->type == T_OBJECT_EX;
        off[i] = slot ? ((PyMemberDescrObject *)d)->d_member->offset : 0;
        Py_DECREF(d);
        if (!off[i]) {
            memset(S.rule_off, 0, sizeof S.rule_off);
            return 0;
        }
    }
    memcpy(S.rule_off, off, sizeof off);
    return 0;
}

static int not_a_combo(const char *what, PyObject *v) {
    PyObject *r = shown(v);
    if (r) {
        PyErr_Format(S.e_combo, "%s %U is not a Combo", what, r);
        Py_DECREF(r);
    }
    return -1;
}

int py_to_play(PyObject *v, play_t *out, const char *what, int check_rank) {
    if (!PyObject_TypeCheck(v, S.combo) || PyTuple_GET_SIZE(v) != 3 ||
        !PyObject_TypeCheck(PyTuple_GET_ITEM(v, 0), (PyTypeObject *)S.ctype))
        return not_a_combo(what, v);
    long t = PyLong_AsLong(PyTuple_GET_ITEM(v, 0));
    if (t < 0 || t >= N_TYPES) {
        PyErr_Clear();
        return not_a_combo(what, v);
    }
    out->type = (uint8_t)t;
    PyObject *r = PyTuple_GET_ITEM(v, 1);
    int seq = t == T_STRAIGHT || t == T_THREE_PAIR || t == T_TWO_TRIPS || t == T_STRAIGHT_FLUSH;
    long top = seq ? 12 : 14, rank = -1;
    if (PyLong_Check(r)) {
        int overflow = 0;
        rank = PyLong_AsLongAndOverflow(r, &overflow);
        if (overflow || rank < 0 || rank > top) rank = -1;
    }
    if (rank < 0) {
        if (check_rank) {
            RAISE_SHOWN(S.e_combo, "%s %U has no valid rank for %s", what, v, TYPE_NAMES[t]);
            return -1;
        }
        rank = 255; /* not a reading of anything: callers answer False */
    }
    out->rank = (uint8_t)rank;
    char buf[64];
    PyOS_snprintf(buf, sizeof buf, "%s cards", what);
    if (py_to_cs(PyTuple_GET_ITEM(v, 2), &out->cards, buf) < 0) return -1;
    out->n = (uint8_t)cs_size(out->cards);
    return 0;
}

PyObject *play_to_py(const play_t *p) {
    PyObject *o = S.combo->tp_alloc(S.combo, 3);
    if (!o) return NULL;
    PyObject *c = cs_to_py(p->cards);
    PyObject *r = PyLong_FromLong(p->rank);
    if (!c || !r) {
        Py_XDECREF(c);
        Py_XDECREF(r);
        Py_DECREF(o);
        return NULL;
    }
    Py_INCREF(S.types[p->type]);
    PyTuple_SET_ITEM(o, 0, S.types[p->type]);
    PyTuple_SET_ITEM(o, 1, r);
    PyTuple_SET_ITEM(o, 2, c);
    return o;
}

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
    if (n != 11) return PyErr_Format(PyExc_TypeError, "_init takes 11 arguments");
    if (!PyType_Check(a[10])) return PyErr_Format(PyExc_TypeError, "_init: Ruleset must be a type");
    if (!PyType_Check(a[0]) || !PyType_IsSubtype((PyTypeObject *)a[0], &PyTuple_Type) || !PyType_Check(a[1]))
        return PyErr_Format(PyExc_TypeError, "_init: Combo must be a tuple type, ComboType a type");
    if (!PyTuple_Check(a[2]) || PyTuple_GET_SIZE(a[2]) != N_TYPES || !PyTuple_Check(a[3]) ||
        PyTuple_GET_SIZE(a[3]) != 4)
        return PyErr_Format(PyExc_TypeError, "_init: bad members");
    for (int i = 0; i < N_TYPES; i++) {
        PyObject *t = PyTuple_GET_ITEM(a[2], i);
        if (!PyObject_TypeCheck(t, (PyTypeObject *)a[1]) || !PyLong_Check(t) || PyLong_AsLong(t) != i)
            return PyErr_Format(PyExc_TypeError, "_init: ComboType members must be its 0..9");
    }
    for (int i = 0; i < 4; i++)
        if (!PyLong_Check(PyTuple_GET_ITEM(a[3], i)))
            return PyErr_Format(PyExc_TypeError, "_init: seats must be ints");
    for (int i = 4; i < 10; i++)
        if (!PyExceptionClass_Check(a[i])) return PyErr_Format(PyExc_TypeError, "_init: errors must be exception classes");
    Py_INCREF(a[0]);
    Py_XSETREF(S.combo, (PyTypeObject *)a[0]);
    Py_INCREF(a[1]);
    Py_XSETREF(S.ctype, a[1]);
    for (int i = 0; i < N_TYPES; i++) {
        Py_INCREF(PyTuple_GET_ITEM(a[2], i));
        Py_XSETREF(S.types[i], PyTuple_GET_ITEM(a[2], i));
    }
    for (int i = 0; i < 4; i++) {
        Py_INCREF(PyTuple_GET_ITEM(a[3], i));
        Py_XSETREF(S.seats[i], PyTuple_GET_ITEM(a[3], i));
    }
    PyObject **errs[6] = {&S.e_guandan, &S.e_card, &S.e_combo, &S.e_illegal, &S.e_turn, &S.e_over};
    for (int i = 0; i < 6; i++) {
        Py_INCREF(a[4 + i]);
        Py_XSETREF(*errs[i], a[4 + i]);
    }
    if (rule_offsets((PyTypeObject *)a[10]) < 0) return NULL;
    Py_INCREF(a[10]);
    Py_XSETREF(S.ruleset, (PyTypeObject *)a[10]);
    S.ready = 1;
    Py_RETURN_NONE;
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
    if (PyType_Ready(&PlayListType) < 0 || PyType_Ready(&NSolverType) < 0) return NULL;
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
    Py_INCREF(&NSolverType);
    if (PyModule_AddObject(mod, "Solver", (PyObject *)&NSolverType) < 0) {
        Py_DECREF(&NSolverType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}

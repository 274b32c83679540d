/* The boundary every native module shares: the state engine.core hands over at import
 * (_init), conversions between Python values and packed ones, the rules read by value.
 * Compiled into each extension module (engine._native._core and the layers' own). */
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

PyObject *core_init(PyObject *const *a, Py_ssize_t n) {
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


/* What the binding files share: conversions between Python values and packed ones, and
 * the Python objects the engine hands over at import (Combo, ComboType, its errors). */
#ifndef GUANDAN_CORE_PY_H
#define GUANDAN_CORE_PY_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "core.h"

/* an int of Python in lo..hi into *out: 0, or -1 (no Python error set) for anything else */
static inline int small_int(PyObject *o, int lo, int hi, int *out) {
    int overflow = 0;
    long x = PyLong_Check(o) ? PyLong_AsLongAndOverflow(o, &overflow) : lo - 1;
    if (overflow || x < lo || x > hi) {
        PyErr_Clear();
        return -1;
    }
    *out = (int)x;
    return 0;
}


typedef struct {
    PyTypeObject *combo;      /* engine.combo.Combo */
    PyObject *ctype;          /* engine.combo.ComboType */
    PyObject *types[N_TYPES]; /* its members */
    PyObject *seats[4];       /* engine.seat.Seat members */
    PyObject *e_guandan, *e_card, *e_combo, *e_illegal, *e_turn, *e_over;
    PyTypeObject *ruleset;    /* engine.ruleset.Ruleset (slots: its fields read in place) */
    Py_ssize_t rule_off[4];   /* offsets of the slots the core reads, 0 when not slots */
    int ready;
} core_state;

extern core_state S;
extern const char *const TYPE_NAMES[N_TYPES];

int core_ready(void);
/* a Python Cards int -> cset; -1 with the engine's InvalidCardError naming `what` */
int py_to_cs(PyObject *v, cset *out, const char *what);
PyObject *cs_to_py(cset c);
int py_level(PyObject *v, int *level);
int py_rules(PyObject *v, rules_t *out);
/* a Combo -> play_t (checked as engine.moves._check_combo does) */
int py_to_play(PyObject *v, play_t *out, const char *what, int check_rank);
PyObject *play_to_py(const play_t *p);

/* _init(Combo, ComboType, types, seats, the six error classes, Ruleset): every module's
 * state set from what engine.core hands over (core_convert.c) */
PyObject *core_init(PyObject *const *a, Py_ssize_t n);

/* a PlayList owning `l` (taken over); the type made ready and added to a module
 * (core_playlist.c) */
PyObject *playlist_new(plist *l);
int playlist_ready(void);
int playlist_add(PyObject *mod);

/* core_deal_py.c */
extern PyMethodDef DEAL_METHODS[];
#endif

/* The players' compiled module (duplicate._native._players): the heuristic bot's plan and
 * choice (core_plan.c, mirrors duplicate/bots.py), playouts and the unseen cards' draw
 * (core_playout.c: duplicate/search.py, duplicate/determinise.py) and the arena's actionList
 * text and agent (core_arena.c: duplicate/arena/protocol.py, agent.py), with the engine's C
 * they use compiled in (docs/CORE.md, "The layout"). */
#include "core_py.h"
#include "core_plan.h"

static PyObject *f_init(PyObject *m, PyObject *const *a, Py_ssize_t n) {
    (void)m;
    return core_init(a, n);
}

static PyMethodDef INIT_METHODS[] = {
    {"_init", (PyCFunction)(void (*)(void))f_init, METH_FASTCALL,
     "_init(...): as engine._native._core._init (engine.core.load_layer calls it)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {PyModuleDef_HEAD_INIT, "duplicate._native._players",
                                       "The players' compiled code (docs/CORE.md).", -1, NULL,
                                       NULL, NULL, NULL, NULL};

#ifndef CORE_SOURCE_HASH
#define CORE_SOURCE_HASH "" /* a build by hand: not checked against the sources */
#endif

PyMODINIT_FUNC PyInit__players(void) {
    core_tables_init();
    if (playlist_ready() < 0) return NULL;
    PyObject *mod = PyModule_Create(&moduledef);
    if (!mod) return NULL;
    PyMethodDef *tables[] = {INIT_METHODS, PLAN_METHODS, PLAYOUT_METHODS, ARENA_METHODS};
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++)
        if (PyModule_AddFunctions(mod, tables[t]) < 0) {
            Py_DECREF(mod);
            return NULL;
        }
    if (PyModule_AddIntConstant(mod, "API_VERSION", CORE_API_VERSION) < 0 ||
        PyModule_AddStringConstant(mod, "SOURCE_HASH", CORE_SOURCE_HASH) < 0 ||
        playlist_add(mod) < 0) {
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}

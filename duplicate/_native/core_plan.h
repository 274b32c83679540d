/* The heuristic bot's choice (core_plan.c, mirrors duplicate/bots.py), shared with the
 * native playouts (core_playout.c) and the arena's agent (core_arena.c). */
#ifndef GUANDAN_CORE_PLAN_H
#define GUANDAN_CORE_PLAN_H
#include "core.h"

/* what the seat to act sees: duplicate.bots.View without the public history */
typedef struct {
    cset hand;
    int level, seat, by; /* by: the seat that made the play to beat, -1 when leading */
    int counts[4];
    const play_t *tb;
    const rules_t *ru;
} view_t;

/* HeuristicPlayer.act: 1 and *out for a play, 0 for a pass, -1 out of memory */
int heuristic_act(const view_t *v, play_t *out);

/* the entry points of duplicate._native._players (players_module.c) */
#include "core_py.h"
extern PyMethodDef PLAN_METHODS[];    /* core_plan.c */
extern PyMethodDef PLAYOUT_METHODS[]; /* core_playout.c */
extern PyMethodDef ARENA_METHODS[];   /* core_arena.c */
#endif

/* The deal's state machine bindings (filled in by the next step). */
#include "core_py.h"
PyMethodDef DEAL_METHODS[] = {{NULL, NULL, 0, NULL}};

#ifndef CYAML_SHIM_H
#define CYAML_SHIM_H
#include <yaml.h>
#endif

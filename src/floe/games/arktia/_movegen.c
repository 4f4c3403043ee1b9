/* Arktia's turn move generator in C: the same list as rules.python_main_actions, about ten times faster.
 *
 * rules.py stays the reference (and what runs when this module is not built); tests compare the two on every
 * position of seeded random games. Nothing here knows a rule the Python side does not hand it: the tower
 * tables (which movers a stack may lift, which fields accept a mover) and the id layout come from towers.py,
 * bitsets.py and actions.py through configure(), the board's geometry through geometry().
 *
 * A position is read where it lives: the state's ``fields`` list (field codes) and its bit sets (Python ints
 * below 2**64: boards have at most 64 fields). Bit c of a set is field c.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#ifndef FLOE_SOURCE_SHA
#define FLOE_SOURCE_SHA "unknown"
#endif

typedef uint64_t u64;

#define MAX_CELLS 64
#define N_CODES 512
#define MAX_OUT (MAX_CELLS * 3 + MAX_CELLS * 3 * MAX_CELLS) /* placements + (source, mover, target) */

/* Set by configure(): the tower tables and where things sit in the bit-set list and the id space. */
static int configured;
static int lifts[8][3];      /* LIFTS[size mask]: the movers (size masks) a stack of that shape may lift */
static int n_lifts[8];
static int drop_ok[8][8];    /* DROP_OK[field size mask][mover]: whether the field accepts the mover */
static int slot_bits[8];     /* SLOT_BITS[mover]: the code bits of the mover's slots */
static int top_at, shape_at, free_at, holes_at, n_sets, place_base;

typedef struct {
    int n;
    u64 full;
    u64 nb[MAX_CELLS];           /* neighbours as a bit set */
    int step[MAX_CELLS][6];      /* the neighbour in each direction, -1 at the edge */
    int32_t move_id[MAX_CELLS][MAX_CELLS]; /* id of moving a Globus src -> dst; -1 off a straight line */
} Geometry;

static const char *CAPSULE = "floe.arktia.geometry";

static inline int low_cell(u64 x) { return __builtin_ctzll(x); }

static int size_mask(long code) {
    int m = 0;
    for (int s = 0; s < 3; s++)
        if ((code >> (3 * s)) & 7) m |= 1 << s;
    return m;
}

static int holds_colour(long code, int p) {
    for (int s = 0; s < 3; s++)
        if (((code >> (3 * s)) & 7) == p + 1) return 1;
    return 0;
}

/* The fields in or next to every connected group of mask (every field when mask is empty); with
 * adjacent, also every field next to a field of mask. One walk over the groups. */
static u64 near_every_group(const Geometry *g, u64 mask, u64 *adjacent) {
    u64 out = g->full, rest = mask, next_to = 0;
    while (rest) {
        u64 comp = rest & -rest, frontier = comp, touch = 0;
        while (frontier) {
            int c = low_cell(frontier);
            frontier &= frontier - 1;
            u64 m = g->nb[c];
            touch |= m;
            u64 fresh = m & mask & ~comp;
            comp |= fresh;
            frontier |= fresh;
        }
        next_to |= touch;
        out &= comp | touch;
        rest &= ~comp;
    }
    if (adjacent) *adjacent = next_to;
    return out;
}

/* The fields on src's six straight rays, each up to (not including) its first hole. */
static u64 reach_from(const Geometry *g, int src, u64 holes) {
    u64 out = 0;
    for (int d = 0; d < 6; d++) {
        for (int j = g->step[src][d]; j >= 0 && !((holes >> j) & 1); j = g->step[j][d])
            out |= (u64)1 << j;
    }
    return out;
}

static int read_u64(PyObject *list, Py_ssize_t i, u64 *out) {
    PyObject *item = PyList_GET_ITEM(list, i);
    unsigned long long v = PyLong_AsUnsignedLongLong(item);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (u64)v;
    return 0;
}

static void free_geometry(PyObject *capsule) { PyMem_Free(PyCapsule_GetPointer(capsule, CAPSULE)); }

/* geometry(neighbours, move_ids) -> capsule: a board's geometry, built once per action space. */
static PyObject *geometry(PyObject *self, PyObject *args) {
    PyObject *neighbours, *move_ids;
    if (!PyArg_ParseTuple(args, "OO", &neighbours, &move_ids)) return NULL;
    Py_ssize_t n = PySequence_Size(neighbours);
    if (n < 0) return NULL;
    if (n > MAX_CELLS || PySequence_Size(move_ids) != n) {
        PyErr_SetString(PyExc_ValueError, "a geometry has at most 64 fields and one id row per field");
        return NULL;
    }
    Geometry *g = PyMem_Calloc(1, sizeof(Geometry));
    if (!g) return PyErr_NoMemory();
    g->n = (int)n;
    g->full = n == 64 ? ~(u64)0 : (((u64)1 << n) - 1);
    for (Py_ssize_t c = 0; c < n; c++) {
        PyObject *row = PySequence_GetItem(neighbours, c);
        PyObject *ids = row ? PySequence_GetItem(move_ids, c) : NULL;
        int bad = !row || !ids || PySequence_Size(row) != 6 || PySequence_Size(ids) != n;
        for (int d = 0; !bad && d < 6; d++) {
            PyObject *v = PySequence_GetItem(row, d);
            long j = v ? PyLong_AsLong(v) : -2;
            Py_XDECREF(v);
            if (j < -1 || j >= n) bad = 1;
            else {
                g->step[c][d] = (int)j;
                if (j >= 0) g->nb[c] |= (u64)1 << j;
            }
        }
        for (Py_ssize_t dst = 0; !bad && dst < n; dst++) {
            PyObject *v = PySequence_GetItem(ids, dst);
            long id = v ? PyLong_AsLong(v) : -2;
            Py_XDECREF(v);
            if (id < -1 || id > INT32_MAX - 8) bad = 1;
            else g->move_id[c][dst] = (int32_t)id;
        }
        Py_XDECREF(row);
        Py_XDECREF(ids);
        if (bad) {
            PyMem_Free(g);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "malformed geometry");
            return NULL;
        }
    }
    PyObject *capsule = PyCapsule_New(g, CAPSULE, free_geometry);
    if (!capsule) PyMem_Free(g);
    return capsule;
}

/* configure(lifts, drop_ok, slot_bits, top_at, shape_at, free_at, holes_at, n_sets, place_base) */
static PyObject *configure(PyObject *self, PyObject *args) {
    PyObject *lift_table, *drop_table, *slot_table;
    if (!PyArg_ParseTuple(args, "OOOiiiiii", &lift_table, &drop_table, &slot_table, &top_at, &shape_at,
                          &free_at, &holes_at, &n_sets, &place_base))
        return NULL;
    for (int m = 0; m < 8; m++) {
        PyObject *row = PySequence_GetItem(lift_table, m);
        if (!row) return NULL;
        Py_ssize_t k = PySequence_Size(row);
        if (k < 0 || k > 3) {
            Py_DECREF(row);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a stack lifts at most 3 movers");
            return NULL;
        }
        n_lifts[m] = (int)k;
        for (Py_ssize_t i = 0; i < k; i++) {
            PyObject *v = PySequence_GetItem(row, i);
            lifts[m][i] = v ? (int)PyLong_AsLong(v) : 0;
            Py_XDECREF(v);
        }
        Py_DECREF(row);
        PyObject *drops = PySequence_GetItem(drop_table, m);
        if (!drops) return NULL;
        for (int mover = 0; mover < 8; mover++) {
            PyObject *v = PySequence_GetItem(drops, mover);
            drop_ok[m][mover] = v ? PyObject_IsTrue(v) : 0;
            Py_XDECREF(v);
        }
        Py_DECREF(drops);
        PyObject *v = PySequence_GetItem(slot_table, m);
        slot_bits[m] = v ? (int)PyLong_AsLong(v) : 0;
        Py_XDECREF(v);
        if (PyErr_Occurred()) return NULL;
    }
    configured = 1;
    Py_RETURN_NONE;
}

/* main_actions(geometry, fields, sets, seat, sizes, moves) -> list of ids, ascending.
 *
 * The seat's placements next to its own Muglus (sizes: a mask of the sizes left in its supply), then, when
 * moves is true, its moves: lift a top part of a stack it tops, go straight up to the first hole, land where
 * the field accepts the mover and the colour stays one group. Ids ascend in (source, target, mover), the
 * order of actions.py's id layout, so no sort is needed. */
static PyObject *main_actions(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "main_actions takes 6 arguments");
        return NULL;
    }
    if (!configured) {
        PyErr_SetString(PyExc_RuntimeError, "configure() first");
        return NULL;
    }
    const Geometry *g = PyCapsule_GetPointer(args[0], CAPSULE);
    if (!g) return NULL;
    PyObject *fields = args[1], *sets = args[2];
    if (!PyList_Check(fields) || !PyList_Check(sets) || PyList_GET_SIZE(fields) != g->n ||
        PyList_GET_SIZE(sets) != n_sets) {
        PyErr_SetString(PyExc_ValueError, "fields and sets must be the board's lists");
        return NULL;
    }
    long p = PyLong_AsLong(args[3]);
    long sizes = PyLong_AsLong(args[4]);
    int moves = PyObject_IsTrue(args[5]);
    if (PyErr_Occurred() || moves < 0) return NULL;
    if (p < 0 || p >= top_at) {
        PyErr_SetString(PyExc_ValueError, "no such seat");
        return NULL;
    }
    u64 own, free_fields;
    if (read_u64(sets, p, &own) || read_u64(sets, free_at, &free_fields)) return NULL;

    /* The fields next to the own colour, and those in or next to every one of its groups. */
    u64 adjacent;
    u64 near_own = near_every_group(g, own, &adjacent);

    static int32_t out[MAX_OUT];
    Py_ssize_t count = 0;
    if (sizes & 7) {
        for (u64 t = adjacent & free_fields; t; t &= t - 1) {
            int c = low_cell(t);
            for (int s = 0; s < 3; s++)
                if ((sizes >> s) & 1) out[count++] = place_base + 3 * c + s;
        }
    }
    if (moves) {
        u64 tops, holes, shape[8];
        if (read_u64(sets, top_at + p, &tops) || read_u64(sets, holes_at, &holes)) return NULL;
        for (int m = 0; m < 8; m++)
            if (read_u64(sets, shape_at + m, &shape[m])) return NULL;
        u64 accepts[8];
        for (int mover = 1; mover < 8; mover++) {
            accepts[mover] = 0;
            for (int m = 0; m < 8; m++)
                if (drop_ok[m][mover]) accepts[mover] |= shape[m];
        }
        for (; tops; tops &= tops - 1) {
            int src = low_cell(tops);
            long code = PyLong_AsLong(PyList_GET_ITEM(fields, src));
            if (code == -1 && PyErr_Occurred()) return NULL;
            if (code < 0 || code >= N_CODES) {
                PyErr_SetString(PyExc_ValueError, "a field code out of range");
                return NULL;
            }
            u64 bit = (u64)1 << src;
            u64 reach = reach_from(g, src, holes);
            u64 near_without = 0;
            int have_without = 0;
            u64 targets[8] = {0};
            u64 any = 0;
            int mask = size_mask(code);
            for (int k = 0; k < n_lifts[mask]; k++) {
                int mover = lifts[mask][k];
                long left = code & ~(long)slot_bits[mover];
                u64 near;
                if (left > 0 && holds_colour(left, (int)p)) {
                    near = near_own; /* an own piece stays on src: the groups stay as they are */
                } else {
                    if (!have_without) {
                        near_without = near_every_group(g, own & ~bit, NULL);
                        have_without = 1;
                    }
                    near = near_without;
                }
                targets[mover] = reach & accepts[mover] & near;
                any |= targets[mover];
            }
            for (; any; any &= any - 1) {
                int dst = low_cell(any);
                int32_t base = g->move_id[src][dst];
                for (int mover = 1; mover < 8; mover++)
                    if ((targets[mover] >> dst) & 1) out[count++] = base + mover - 1;
            }
        }
    }
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = PyLong_FromLong(out[i]);
        if (!v) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static PyMethodDef methods[] = {
    {"configure", configure, METH_VARARGS, "Hand over the tower tables and the id layout (once)."},
    {"geometry", geometry, METH_VARARGS, "A board's geometry: geometry(neighbours, move_ids)."},
    {"main_actions", (PyCFunction)(void (*)(void))main_actions, METH_FASTCALL,
     "main_actions(geometry, fields, sets, seat, sizes, moves): the seat's placements and moves."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_movegen", "Arktia's move generator in C.", -1,
                                    methods};

PyMODINIT_FUNC PyInit__movegen(void) {
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "SOURCE_SHA", FLOE_SOURCE_SHA) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

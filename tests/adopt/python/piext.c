/* piext.c — a Python extension module for tests/adopt/t-python.sh: counted
 * code in a shared object that python3, which perfinst did not build,
 * dlopen's with RTLD_LOCAL.  piext.work(n) calls step n times. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

__attribute__((noipa)) static long step(long x)
{
    return x % 3 ? x + 1 : x / 3;
}

static PyObject *work(PyObject *self, PyObject *args)
{
    long n, s = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "l", &n))
        return NULL;
    for (long i = 0; i < n; i++)
        s += step(i);
    return PyLong_FromLong(s);
}

static PyMethodDef methods[] = {
    {"work", work, METH_VARARGS, "the sum of step(i) for i < n"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "piext", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit_piext(void)
{
    return PyModule_Create(&module);
}

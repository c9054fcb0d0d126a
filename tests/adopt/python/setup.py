# setup.py — piext built as its users build an extension (t-python.sh)
from setuptools import Extension, setup

setup(name="piext", version="1", ext_modules=[Extension("piext", ["piext.c"])])

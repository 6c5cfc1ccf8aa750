# Types for the compiled form of table.py (Cython reads this beside it; the .py stays the source).
import cython

from calcnb.solver.position cimport Position


cdef class Table:
    cdef public Position position
    cdef public bint symmetry
    cdef public dict entries, _canonical
    cdef public long long epoch
    cdef public set hard

    @cython.locals(position=Position, codes=list, p=list, counts=cython.long, k=cython.int, pile_codes=list,
                   w=cython.int, marks=cython.int, memo_key=tuple, count=cython.int, key=list, i=cython.int)
    cpdef tuple key(self)

    @cython.locals(position=Position, p=list, pos=tuple, masks=list, pile=list, d=cython.int, r=cython.int,
                   m=cython.int, k=cython.int, F=cython.int)
    cpdef _live_marks(self, int w)

    @cython.locals(masks=list, d=cython.int, m=cython.int)
    cdef bint _marked(self, int w) except? -1

    cpdef get(self, tuple key)

    cpdef bint cuts(self, long long known, long long budget) except? -1

    cpdef prove(self, tuple key)

    cpdef failed(self, tuple key, long long budget)

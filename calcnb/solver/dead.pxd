# Types for the compiled form of dead.py (Cython reads this beside it; the .py stays the source).
import cython

from calcnb.solver.position cimport Position


cdef class DeadTest:
    cdef public Position position
    cdef public list window, gone_from_stock

    @cython.locals(position=Position, inwaste=list, rem=list, stuck=cython.long, s=cython.int, c=cython.int)
    cpdef long _stuck_ranks(self) except? -1

    @cython.locals(stuck=cython.long, position=Position, R=cython.int, F=cython.int, k=cython.int, j=cython.int,
                   free=cython.long, hw=cython.int, r=cython.int, m=cython.int, w=cython.int, changed=cython.bint,
                   o=tuple, order=tuple, pos=list, p=list, window=list, first_stuck=list, h=list, pile=list, mk=list,
                   found=cython.bint)
    cpdef bint lost(self) except? -1

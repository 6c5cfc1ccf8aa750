# Types for the compiled form of dead.py (Cython reads this beside it; the .py stays the source).
# The arrays' sizes are the bounds of relaxed.py (4 foundations, 13 ranks), which Position enforces.
import cython

from calcnb.solver.position cimport Position


cdef class DeadTest:
    cdef public Position position
    cdef public list gone_from_stock
    cdef int order[4][13]
    cdef int pos[4][14]
    cdef int before[4][14]

    @cython.locals(position=Position, inwaste=list, rem=list, stuck=cython.long, s=cython.int, c=cython.int)
    cpdef long _stuck_ranks(self) except? -1

    @cython.locals(stuck=cython.long, position=Position, R=cython.int, F=cython.int, W=cython.int, k=cython.int,
                   j=cython.int, free=cython.long, hw=cython.int, r=cython.int, m=cython.int, w=cython.int,
                   changed=cython.bint, o=cython.p_int, p=cython.int[4], first_stuck=cython.int[4], h=cython.int[4],
                   piles=list, masks=list, pile=list, mk=list)
    cpdef bint lost(self) except? -1


@cython.locals(gone_from_stock=list, never=cython.int, row=list, gone=list, r=cython.int, t=cython.int)
cdef list _gone(list next_in_stock, int R)

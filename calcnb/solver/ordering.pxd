# Types for the compiled form of ordering.py (Cython reads this beside it; the .py stays the source).
import cython

from calcnb.solver.position cimport Position
from calcnb.solver.witness cimport Witness


cdef class Ordering:
    cdef public Position position
    cdef public bint symmetry
    cdef public object shuffle
    cdef dict _urgencies
    cdef int soonest[14]
    cdef int order_c[4][13]

    @cython.locals(position=Position, i=cython.int, n=cython.int, pile=list, t=cython.int)
    cpdef int soon(self, int r) except? -1

    @cython.locals(position=Position, after=cython.int)
    cpdef double _after(self, int k) except? -2

    @cython.locals(position=Position, pairs=list, src=cython.int, k=cython.int, F=cython.int, takers=cython.int,
                   w=cython.int, wants=list, codes=list, piles=list, pile=list)
    cpdef list foundation_moves(self, tie)

    @cython.locals(position=Position, p=list, key=cython.long, k=cython.int, R=cython.int, soonest=list, o=tuple,
                   d=cython.int, r=cython.int, pk=cython.int)
    cpdef list urgencies(self)

    @cython.locals(position=Position, R=cython.int, never=cython.int, r=cython.int, k=cython.int, o=cython.p_int,
                   pk=cython.int, d=cython.int)
    cdef _fill_soonest(self)

    @cython.locals(position=Position, R=cython.int, pos=tuple, p=list, piles=list, codes=list, r=cython.int,
                   urgency=list, need_r=cython.int, fits=cython.int[4], kinds=cython.int[4], gaps=cython.double[4],
                   ws=cython.int[4], stock_slots=cython.int[4], found=cython.int, slots=list, times=list, k=cython.int,
                   j=cython.int, n=cython.int, w=cython.int, pile=list, fit=cython.int, kind=cython.int,
                   gap=cython.double, card=cython.int, s=cython.int, held=cython.int, before=cython.double, fitted=cython.bint, later=cython.bint,
                   latest=cython.double, earliest=cython.double, i=cython.int, t=cython.double, need_top=cython.int)
    cpdef list placements(self, Witness own)

    @cython.locals(v=cython.int, code=object)
    cdef bint _like_an_earlier_pile(self, list codes, int w) except? -1


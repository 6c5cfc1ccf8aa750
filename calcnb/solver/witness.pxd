# Types for the compiled form of witness.py (Cython reads this beside it; the .py stays the source).
import cython

from calcnb.solver.position cimport Position
from calcnb.solver.relaxed cimport RelaxedGame


cdef class Witness:
    cdef public int made_at
    cdef public object last_move
    cdef public list slots, times


cdef class Witnesses:
    cdef public Position position
    cdef public RelaxedGame relaxed
    cdef public list stack, done

    @cython.locals(made_at=cython.int)
    cdef bint _on_path(self, Witness witness) except? -1

    @cython.locals(witness=Witness)
    cpdef Witness own(self)

    @cython.locals(position=Position, plen=cython.int, stack=list, carried=tuple, top=Witness, p=list, piles=list)
    cpdef check(self)

    @cython.locals(position=Position, R=cython.int, F=cython.int, pos=tuple, piles=list, shift=cython.int,
                   depth_mask=cython.int, slots=list, times=list, q=cython.int[4], k=cython.int, e=cython.int,
                   card=cython.int, j=cython.int, base=cython.int, gap=cython.int, t=cython.int, end=cython.int)
    cdef tuple _slots_of_line(self, list events)

    @cython.locals(position=Position, R=cython.int, shift=cython.int, depth_mask=cython.int, p=list, piles=list,
                   F=cython.int, q=cython.int[4], h=cython.int[4], times=list, t=cython.double, progress=cython.bint,
                   k=cython.int, j=cython.int, start=cython.int, base=cython.int, card=cython.int, w=cython.int)
    cdef list _retime(self, list slots)

    @cython.locals(best=cython.int, earliest=cython.int, R=cython.int, pos=tuple, k=cython.int, j=cython.int,
                   s=cython.int, t=cython.double)
    cdef int _stock_slot(self, int r, int* q, list slots, list times, double after, double before) except? -2

    @cython.locals(position=Position, R=cython.int, shift=cython.int, depth_mask=cython.int, stock=tuple,
                   times=list, path=list, start=cython.int, end=cython.int, q=cython.int[4], h=cython.int[4],
                   p=list, piles=list, k=cython.int, w=cython.int, i=cython.int, e=cython.int, move=tuple,
                   kind=cython.int, slots=list, stale=cython.bint, hw=cython.int, before=cython.double,
                   found=cython.int, s=cython.int, card=cython.int, wc=cython.int, dc=cython.int,
                   after=cython.double, holder=cython.int, s2=cython.int, t=cython.double)
    cdef tuple _carry(self, Witness witness)


@cython.locals(s=cython.int, held=cython.int)
cdef int _slot_of(list slots, int card) except -1

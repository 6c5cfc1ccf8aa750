# Types for the compiled form of relaxed.py (Cython reads this beside it; the .py stays the source).
import cython


cdef class _Search:
    cdef tuple order, place
    cdef dict memory
    cdef int ranks, shift, F, W, cards_left, states_left
    cdef list piles, p, h, copies, demand, prefix, contents, tops, hinted_when, hinted_foundation, events
    cdef object last

    @cython.locals(R=cython.int, F=cython.int, k=cython.int, q=cython.int, start=cython.int, r=cython.int,
                   a=cython.int, t=cython.int, o=tuple, advanced=list)
    cdef int step(self) except -1

    @cython.locals(R=cython.int, F=cython.int, W=cython.int, k=cython.int, q=cython.int, r=cython.int,
                   w=cython.int, hw=cython.int, j=cython.int, t=cython.int, s=cython.int, on_top=cython.int,
                   hinted_foundation=cython.int, needed=cython.bint, won=cython.int, o=tuple, moves=list,
                   reach=list, move=tuple, key=tuple)
    cdef int choose(self) except -1

    cpdef _recall(self, tuple known)

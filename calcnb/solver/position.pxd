# Types for the compiled form of position.py (Cython reads this beside it; the .py stays the source).
import cython


cdef class Position:
    cdef public int ranks, card_shift, depth_mask, n, full, index, marks, on_foundations
    cdef public tuple order, need, stock, pos
    cdef public list p, piles, masks, codes, path, rem, needers, wants, inwaste, next_in_stock
    cdef public object FR, WR

    @cython.locals(R=cython.int, p=list, pos=tuple, piles=list, stock=tuple, n=cython.int, F=cython.int,
                   rem=list, s=cython.int, c=cython.int, k=cython.int, o=tuple, j=cython.int, needers=list,
                   wants=list, inwaste=list, w=cython.int, pile=list, d=cython.int, table=list, row=list,
                   t=cython.int)
    cdef _count(self)

    cpdef bint won(self)

    @cython.locals(bit=cython.int, q=cython.int)
    cpdef advance(self, int k, int r)

    @cython.locals(bit=cython.int, q=cython.int, r=cython.int, need_k=tuple)
    cpdef int retreat(self, int k) except? -1

    @cython.locals(r=cython.int)
    cpdef waste_to_foundation(self, int w, int k)

    @cython.locals(i=cython.int, r=cython.int)
    cpdef stock_to_foundation(self, int k)

    cpdef to_foundation(self, int src, int k)

    @cython.locals(i=cython.int, r=cython.int, m=cython.int)
    cpdef stock_to_waste(self, int w)

    @cython.locals(w=cython.int, k=cython.int, m=cython.int, r=cython.int)
    cpdef undo(self)

    @cython.locals(bit=cython.int)
    cpdef set_forbid(self, int src, int k, bint on)

    cpdef back_to_root(self)

    cpdef int rank_of(self, int src) except? -1

# Types for the compiled form of search.py (Cython reads this beside it; the .py stays the source).
import cython

from calcnb.solver.dead cimport DeadTest
from calcnb.solver.ordering cimport Ordering
from calcnb.solver.position cimport Position
from calcnb.solver.table cimport Table
from calcnb.solver.witness cimport Witness, Witnesses


cdef class Search:
    cdef public Position position
    cdef public DeadTest dead
    cdef public Ordering ordering
    cdef public Witnesses witnesses
    cdef public Table table
    cdef public object clock, deadline, node_limit, restart_nodes
    cdef public bint use_safe, use_forbid, use_dominance, use_dead, use_relaxed
    cdef public int relaxed_stock
    cdef public long nodes, stop

    @cython.locals(position=Position, needers=list, wants=list, i=cython.int, r=cython.int, m=cython.int,
                   allowed=cython.int, w=cython.int, pile=list, k=cython.int)
    cpdef safe_scan(self)

    @cython.locals(position=Position, i=cython.int, bit=cython.int, d=cython.int, pile=list, mk=list)
    cpdef bint starved(self, int k, int r) except? -1

    @cython.locals(position=Position, m=cython.int, w=cython.int, k2=cython.int, piles=list, masks=list)
    cpdef bint dominated(self, int k, int r, list tried) except? -1

    @cython.locals(position=Position, applied=cython.int)
    cpdef node(self, long budget)

    cpdef tuple _known(self, tuple key, long budget)

    @cython.locals(position=Position)
    cpdef bint _lost_at_sight(self, tuple key) except? -1

    @cython.locals(position=Position, exact=cython.bint, rest_dead=cython.bint, turned=cython.int, src=cython.int,
                   k=cython.int, forbidden=list, tried=list, budget_left=cython.long, own=Witness)
    cpdef expand(self, long budget, tie)

    @cython.locals(position=Position, exact=cython.bint, index=cython.int, w=cython.int)
    cpdef _placements(self, long budget, Witness own, long cost)

# Types for the compiled form of relaxed.py (Cython reads this beside it; the .py stays the source).
# The arrays' sizes are the bounds of relaxed.py (MAX_FOUNDATIONS 4, MAX_WASTES 4, MAX_RANKS 13, MAX_PILE 52),
# which check_size enforces before anything is written into them.
import cython


cdef long long _ID_LIMIT
cdef unsigned long long _K1, _K2, _K3
cdef double _UNHINTED
cdef int _LOST, _WON, _OVER


cdef class _Search


cdef class RelaxedGame:
    cdef _Search _searcher
    cdef public tuple order, place
    cdef public int ranks, card_shift
    cdef public dict memory, ids
    cdef int order_c[4][13]
    cdef int place_c[4][14]
    cdef int cached[4][52]
    cdef long long cached_ids[4][53]
    cdef int cached_len[4]
    # the memory in C arrays (relaxed.py: RelaxedGame._find)
    cdef unsigned long long *entries
    cdef long long *index
    cdef long long entries_size, index_size, stored

    cpdef list search(self, list foundations, list piles, int limit, dict hint=*)

    cpdef list search_witnessed(self, list foundations, list piles, int limit, list slots, list times)

    @cython.locals(search=_Search, won=cython.int)
    cdef list _run(self, list foundations, list piles, int limit, dict hint, list slots, list times)

    @cython.locals(mask=cython.longlong, i=cython.longlong, e=cython.longlong)
    cdef long long _find(self, unsigned long long a, unsigned long long b, unsigned long long c) noexcept

    @cython.locals(size=cython.longlong, grown=cython.p_void, e=cython.longlong)
    cdef long long _store(self, unsigned long long a, unsigned long long b, unsigned long long c,
                          unsigned long long known, long long after) except -1

    @cython.locals(mask=cython.longlong, i=cython.longlong)
    cdef void _place(self, long long e) noexcept

    @cython.locals(size=cython.longlong, grown=cython.p_void, e=cython.longlong)
    cdef int _grow_index(self) except -1

    cdef void _free(self) noexcept


cdef class _Search:
    cdef RelaxedGame game
    cdef dict memory
    cdef int ranks, shift, F, W, cards_left, states_left
    cdef int order[4][13]
    cdef int place[4][14]
    cdef int piles[4][52]
    cdef int p[4]
    cdef int h[4]
    cdef int tops[4]
    cdef int copies[14]
    cdef int demand[14]
    cdef long long prefix[4][53]
    cdef long long contents[4]
    cdef double hinted_when[4][52]
    cdef int hinted_foundation[4][52]
    cdef public list events
    cdef long long last

    @cython.locals(R=cython.int, F=cython.int, W=cython.int, w=cython.int, most=cython.int)
    cdef _setup(self, RelaxedGame game, list foundations, list piles, int limit, dict hint, list slots, list times)

    @cython.locals(R=cython.int, F=cython.int, W=cython.int, k=cython.int, q=cython.int, r=cython.int, w=cython.int,
                   d=cython.int, pile=list)
    cdef _copy_tables(self, RelaxedGame game, list piles)

    @cython.locals(p=cython.p_int, demand=cython.p_int, o=cython.p_int, R=cython.int, r=cython.int, k=cython.int,
                   j=cython.int)
    cdef _count_demand(self, list foundations)

    @cython.locals(copies=cython.p_int, cached=cython.p_int, cached_ids=cython.p_longlong, ids=dict, pile=list,
                   r=cython.int, w=cython.int, d=cython.int, n=cython.int, cards_left=cython.int, same=cython.int,
                   last=cython.int, node=cython.longlong, link=cython.longlong)
    cdef int _read_piles(self, RelaxedGame game, list piles) except -1

    @cython.locals(shift=cython.int, W=cython.int, w=cython.int, d=cython.int, depth_mask=cython.int,
                   card=cython.int, entry=tuple, below=cython.double)
    cdef _read_hint(self, dict hint, list piles)

    @cython.locals(shift=cython.int, W=cython.int, R=cython.int, depth_mask=cython.int, k=cython.int, j=cython.int,
                   o=cython.p_int, card=cython.int, w=cython.int, d=cython.int)
    cdef _read_witness(self, list slots, list times, list piles)

    @cython.locals(w=cython.int, d=cython.int, below=cython.double)
    cdef _hint_below(self)

    @cython.locals(p=cython.p_int, contents=cython.p_longlong, a=cython.ulonglong, b=cython.ulonglong,
                   c=cython.ulonglong, node=cython.ulonglong, k=cython.int, w=cython.int)
    cdef (unsigned long long, unsigned long long, unsigned long long) key(self) noexcept

    @cython.locals(p=cython.p_int, copies=cython.p_int, demand=cython.p_int, o=cython.p_int, R=cython.int,
                   F=cython.int, k=cython.int, q=cython.int, r=cython.int, t=cython.int, start=cython.int,
                   advanced=cython.int[8], n=cython.int, a=cython.int, won=cython.int)
    cdef int step(self) except -1

    @cython.locals(p=cython.p_int, copies=cython.p_int, demand=cython.p_int, h=cython.p_int, tops=cython.p_int,
                   o=cython.p_int, pile=cython.p_int, contents=cython.p_longlong, prefix=cython.p_longlong,
                   k=cython.int, q=cython.int, r=cython.int, w=cython.int, hw=cython.int, j=cython.int, t=cython.int,
                   won=cython.int, n=cython.int, m=cython.int, whens=cython.double[16], rests=cython.int[16],
                   memory=dict, a=cython.ulonglong, b=cython.ulonglong, c=cython.ulonglong, e=cython.longlong,
                   card=cython.int)
    cdef int choose(self) except -1

    # the moves of choose, written into its arrays (16: MAX_FOUNDATIONS * MAX_WASTES): plain C, nothing to raise;
    # inline: called directly (no vtable), for the C compiler to fold into choose (the hot path keeps its speed)
    @cython.locals(p=cython.p_int, copies=cython.p_int, tops=cython.p_int, R=cython.int, W=cython.int, k=cython.int,
                   q=cython.int, r=cython.int, w=cython.int, n=cython.int, on_top=cython.int)
    cdef inline int _forced_moves(self, double *whens, int *rests) noexcept

    @cython.locals(p=cython.p_int, copies=cython.p_int, demand=cython.p_int, h=cython.p_int, tops=cython.p_int,
                   o=cython.p_int, F=cython.int, k=cython.int, q=cython.int, r=cython.int, w=cython.int, hw=cython.int,
                   j=cython.int, t=cython.int, s=cython.int, hinted_foundation=cython.int, needed=cython.bint,
                   n=cython.int, i=cython.int, rest=cython.int, when=cython.double, reach=cython.int[4])
    cdef inline int _free_moves(self, double *whens, int *rests) noexcept

    cpdef _recall(self, tuple known)

    @cython.locals(entries=cython.p_ulonglong, line=list, known=cython.ulonglong, after=cython.longlong)
    cdef int _recall_entry(self, long long e) except -1


@cython.locals(h=cython.ulonglong)
cdef unsigned long long _mix(unsigned long long a, unsigned long long b, unsigned long long c) noexcept

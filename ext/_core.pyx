# cython: language_level=3, cdivision=True
"""Double-dummy search core for French Tarot.

Cards use the encoding of ``tarot_solver.cards`` (suit * 14 + rank - 1 for plain
suits, 56 + n - 1 for trump n, 77 the Excuse).  Inside, a hand is five small
bitsets, one per suit (plain suits 14 bits, trumps 21 bits); the Excuse is kept
apart as the seat that holds it.

The value searched is the taker's final half-points minus twice the target for
the oudlers his camp ends with (FORMATS.md ``margin`` in half-points).  Every
search below is fail-soft alpha-beta over single card plays with:

* a transposition table at trick boundaries storing bounds on the value still to
  come (final value minus the taker's half-points so far) under a key made of
  *relative ranks* (each suit's remaining cards renumbered), so positions that
  differ only in cards already played share entries, across deals too; with
  *partition search*, an entry also serves positions that differ in low plain
  cards its result did not depend on;
* merging of equivalent cards (same hand, adjacent among the cards still in play,
  same value) and *value choice* (once the camp winning the trick is settled, a
  run of touching cards gives its most valuable card to its own camp's trick and
  its cheapest to the other's);
* sure-point bounds at each trick start from what each camp is sure of: the
  trumps the other camp cannot beat (a maximum matching), the leader drawing
  trumps and cashing plain masters, a taker not on lead who holds the master
  trump doing the same once he has the lead, a Petit kept by trump length,
  the Excuse; the other camp then gets at most its best cards in the tricks
  left to it;
* null-window probes: make/fail is one probe at 0, the exact value a sequence
  of fail-soft probes sharing the table (bisection, then a descent:
  tarot_solver/solver.py).
"""

from libc.stdint cimport uint64_t, uint32_t, int16_t, int8_t, uint8_t, int64_t, uintptr_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport calloc, free

import signal
import threading

cdef extern from *:
    """
    #include <stdint.h>
    #include <time.h>
    #if defined(__BMI2__)
    #include <immintrin.h>
    static inline uint64_t tc_pext(uint64_t x, uint64_t m) { return _pext_u64(x, m); }
    static inline uint64_t tc_pdep(uint64_t x, uint64_t m) { return _pdep_u64(x, m); }
    #else
    static inline uint64_t tc_pext(uint64_t x, uint64_t m) {
        uint64_t r = 0, bb = 1;
        while (m) { if (x & m & (~m + 1)) r |= bb; m &= m - 1; bb <<= 1; }
        return r;
    }
    static inline uint64_t tc_pdep(uint64_t x, uint64_t m) {
        uint64_t r = 0, bb = 1;
        while (m) { if (x & bb) r |= m & (~m + 1); m &= m - 1; bb <<= 1; }
        return r;
    }
    #endif
    static inline int tc_popcount(uint64_t x) { return __builtin_popcountll(x); }
    static inline int tc_ctz(uint64_t x) { return __builtin_ctzll(x); }
    static inline int tc_msb(uint64_t x) { return 63 - __builtin_clzll(x); }
    static inline void tc_prefetch(const void* a) {
        __builtin_prefetch(a); __builtin_prefetch((const char*)a + 64);
    }
    /* Ctrl-C or SIGTERM during a search: the GIL is released, so Python's own
       handlers cannot run; this one records the signal in a flag the search
       polls with the clock, and the caller raises it again once the search has
       unwound and Python's handlers are back.  A signal the process ignores
       stays ignored (loky's workers ignore SIGINT). */
    #include <signal.h>
    #include <string.h>
    static volatile sig_atomic_t tc_interrupted = 0;
    static struct sigaction tc_saved[2];
    static const int tc_signals[2] = {SIGINT, SIGTERM};
    static void tc_on_signal(int sig) { tc_interrupted = sig; }
    static void tc_catch_signals(void) {
        struct sigaction sa;
        int i;
        tc_interrupted = 0;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = tc_on_signal;
        sigemptyset(&sa.sa_mask);
        for (i = 0; i < 2; i++) {
            sigaction(tc_signals[i], NULL, &tc_saved[i]);
            if (tc_saved[i].sa_handler != SIG_IGN) sigaction(tc_signals[i], &sa, NULL);
        }
    }
    static int tc_release_signals(void) {
        int i;
        for (i = 0; i < 2; i++) sigaction(tc_signals[i], &tc_saved[i], NULL);
        return tc_interrupted;
    }
    /* The table: zeroed, aligned for and asking for 2 MiB pages where Linux
       offers them (a probe lands anywhere in the part in use: with 4 KiB
       pages nearly every probe also misses the TLB, and on a fresh table
       each first touch of a page is a fault; the pages come as the table
       grows into them, see tt_grow); ``base`` and ``len`` are for tc_free. */
    #include <stdlib.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    static void* tc_alloc(size_t n, void** base, size_t* len) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        size_t huge = (size_t)2 << 20;
        void* p = mmap(NULL, n + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        char* a;
        if (p == MAP_FAILED) { *base = NULL; return NULL; }
        a = (char*)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
        *base = p; *len = n + huge;
        madvise(a, n, MADV_HUGEPAGE);
        return a;
    #else
        void* p = calloc(n + 64, 1);
        *base = p; *len = 0;
        return p ? (void*)(((uintptr_t)p + 63) & ~(uintptr_t)63) : NULL;
    #endif
    }
    static void tc_free(void* base, size_t len) {
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (base) munmap(base, len);
    #else
        (void)len; free(base);
    #endif
    }
    static inline double tc_now(void) {
        struct timespec ts; clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    }
    """
    uint64_t tc_pext(uint64_t x, uint64_t m) nogil
    uint64_t tc_pdep(uint64_t x, uint64_t m) nogil
    int tc_popcount(uint64_t x) nogil
    int tc_ctz(uint64_t x) nogil
    int tc_msb(uint64_t x) nogil
    void tc_prefetch(const void* a) nogil
    double tc_now() nogil
    void* tc_alloc(size_t n, void** base, size_t* len) nogil
    void tc_free(void* base, size_t len) nogil
    volatile int tc_interrupted
    void tc_catch_signals()
    int tc_release_signals()

DEF MAXP = 5
DEF NSUITS = 5          # 4 plain suits, trumps
DEF TRUMP = 4
DEF EXCUSE = 77
DEF MAXPLY = 128
DEF MAXMOVES = 32
DEF WAYS = 32
DEF INF = 10000
DEF NO_EXCUSE = 7
DEF FCACHE_BITS = 12    # the caches of the trumps' counts (forced_count, sure_trumps)
DEF FCACHE = 1 << FCACHE_BITS
DEF SCAN_NODES = 100    # budget per card of the early-deal scan (see ab)
DEF NO_REL = 10         # relevance threshold when only the honours (bits 10-13) count
DEF CHOICE = 0x100      # flag on a move's run: the move is a value choice among its cards

# half-point value of each rank bit in each suit
cdef uint8_t VAL[5][21]
cdef int _s, _r
for _s in range(4):
    for _r in range(21):
        VAL[_s][_r] = 0
    for _r in range(10):
        VAL[_s][_r] = 1
    VAL[_s][10] = 3
    VAL[_s][11] = 5
    VAL[_s][12] = 7
    VAL[_s][13] = 9
for _r in range(21):
    VAL[4][_r] = 1
VAL[4][0] = 9
VAL[4][20] = 9

cdef inline int card_of(int suit, int bit) noexcept nogil:
    return suit * 14 + bit if suit < TRUMP else 56 + bit

cdef uint8_t CARD_VAL[78]
for _r in range(78):
    CARD_VAL[_r] = 9 if _r == EXCUSE else (VAL[4][_r - 56] if _r >= 56 else VAL[_r // 14][_r % 14])

# each card's suit and rank bit (TRUMP and 0-21 for the trumps and the
# Excuse), and its count in Pos.lows for seat 0 (a low plain card: 1 in its
# suit's 16 bits; make shifts it to the seat's 4)
cdef uint8_t CARD_SUIT[78]
cdef uint8_t CARD_BIT[78]
cdef uint64_t CARD_LOW[78]
for _r in range(78):
    CARD_SUIT[_r] = TRUMP if _r >= 56 else _r // 14
    CARD_BIT[_r] = _r - 56 if _r >= 56 else _r % 14
    CARD_LOW[_r] = 1ULL << (16 * (_r // 14)) if _r < 56 and _r % 14 < 10 else 0


# Positions alike but for which honours of a suit remain (the same number,
# the same owners by relative rank) play alike card for card: the mapping of
# each suit's i-th highest card onto the other's keeps every trick's winner,
# so the taker's points still to come differ, line for line, by the values of
# the mapped honours he wins.  HNEG/HPOS[x * 16 + y]: the sums of the
# negative and of the positive differences (half-points) between the honours
# ``y`` and ``x`` (bits V, C, Q, K) of one suit, paired from the highest.
cdef int8_t HNEG[256]
cdef int8_t HPOS[256]
cdef int _x, _y, _i, _j, _d
for _x in range(16):
    for _y in range(16):
        HNEG[_x * 16 + _y] = 0
        HPOS[_x * 16 + _y] = 0
        _i = 4
        _j = 4
        while True:
            _i -= 1
            while _i >= 0 and not (_x >> _i) & 1:
                _i -= 1
            _j -= 1
            while _j >= 0 and not (_y >> _j) & 1:
                _j -= 1
            if _i < 0 or _j < 0:
                break
            _d = VAL[0][10 + _j] - VAL[0][10 + _i]
            if _d < 0:
                HNEG[_x * 16 + _y] += _d
            else:
                HPOS[_x * 16 + _y] += _d


# one card's count in a ValueCounts word (the Excuse's is never added), and
# a plain suit's honours' (bits V, C, Q, K)
cdef uint64_t VC_UNIT[78]
cdef uint64_t VC_HONOURS[16]
for _r in range(78):
    VC_UNIT[_r] = (1ULL << (8 * ((9 - CARD_VAL[_r]) >> 1))) | (1ULL << 40) | (<uint64_t>CARD_VAL[_r] << 48)
for _x in range(16):
    VC_HONOURS[_x] = 0
    for _i in range(4):
        if (_x >> _i) & 1:
            VC_HONOURS[_x] += VC_UNIT[10 + _i]


cdef inline int card_value(int card) noexcept nogil:
    return CARD_VAL[card]

cdef inline bint is_oudler_card(int card) noexcept nogil:
    return card == 56 or card == 76 or card == EXCUSE


cdef struct Entry:
    uint64_t k[6]
    uint64_t mask       # fine-key bits (owners of plain cards) the result depends on
    int16_t lo
    int16_t hi
    uint8_t move        # suit * 32 + relative index, 254 the Excuse, 255 none
    uint8_t hx[3]       # the hash's top 24 bits, which place it (tt_at; tt_grow)


cdef struct Bucket:
    # the lines scanned first: per entry a 24-bit tag of its bucket hash
    # (0: empty) and the log2 of the nodes it cost (for replacement)
    uint32_t meta[WAYS]
    Entry e[WAYS]


cdef struct Undo:
    int card
    int seat
    int completed       # 1 if this play completed a trick
    int old_leader
    int old_taker_hp
    int old_fixed
    int old_won0
    int old_won1
    int old_excuse_owner
    int win_card        # the card that won the trick completed by this play
    int trick_cards[MAXP]
    uint32_t old_alive[NSUITS]


cdef struct ValueCounts:
    # one word, so that make and unmake keep it with one add (VC_UNIT): a
    # byte each for the cards worth 9, 7, 5, 3 and 1 half-points (the Excuse
    # aside; vc_n), a byte for the cards counted (vc_total), 16 bits for
    # their half-points (vc_pts)
    uint64_t w


cdef struct ForcedEntry:
    uint64_t k[3]               # what the count depends on (trump_key, forced_count); k[2] never 0
    int8_t kn, kp


cdef struct SureEntry:
    uint64_t k[3]               # (trump_key, sure_trumps); k[2] never 0
    uint32_t masters[MAXP]
    int16_t pts
    int8_t oud, ntricks


cdef struct AbsEntry:
    uint64_t k[3]       # the state (abs_key); k[1] bit 63 set when used
    int8_t lo, hi       # bounds on the taker's camp's tricks from there


cdef struct Pos:
    int np
    uint32_t hand[MAXP][NSUITS]
    uint32_t alive[NSUITS]      # cards in the hands or on the table, by suit
    int excuse_owner            # seat, or -1 when not in a hand
    uint8_t camp[MAXP]          # 1: taker's camp
    int camp_mask
    int leader
    int ntrick
    int trick[MAXP]
    int tricks_left             # tricks not finished, the current one included
    int taker_hp
    int fixed                   # oudlers settled in the taker's camp
    int won[2]                  # camp c has won every finished trick
    int tgt[4]                  # twice the target by oudler count
    int even                    # four players, targets of one parity (see parity)
    ValueCounts vc[MAXP]        # each hand's cards by value (kept by make/unmake)
    int ply
    Undo undo[MAXPLY]
    # the current trick as it stood at each ply (make; Core.load for ply 0):
    # its led suit (-1 before a card other than the Excuse) and the index of
    # its card winning so far (-1 likewise)
    int tled[MAXPLY + 1]
    int tbest[MAXPLY + 1]
    # the low cards (ranks 1-10) of each plain suit s in seat q's hand, for
    # the seats but the last, in 4 bits at 16 * s + 4 * q (make_key)
    uint64_t lows
    ForcedEntry* fcache         # FCACHE entries (forced_count), owned by Core
    SureEntry* scache           # FCACHE entries (sure_trumps), owned by Core
    AbsEntry* acache            # ACACHE entries (abs_bound), owned by Core


cdef struct Search:
    Pos p
    Bucket* table
    uint64_t nbuckets       # in use now (tt_grow doubles it)
    uint64_t max_buckets    # what the allocation holds
    uint64_t tt_fill        # entries written into empty slots since the last clear
    int64_t nodes
    int64_t node_limit
    int64_t sub_limit       # a scan's budget: the search below stops there
    double deadline
    double stop             # Core.stop_at's time: ends any search, one in progress too (0: none)
    int aborted
    int64_t tt_probes
    int64_t tt_hits
    int64_t tt_shifted  # lookups an entry for other honours tightened
    int64_t run_shifts  # honours not searched, bounded by a touching one's result
    int64_t tt_stores
    int use_table
    int use_bounds
    int use_merge
    int use_partition
    int use_scan
    int use_abstract        # the abstract game's bounds (abs_bound)
    int use_similar         # bounds shifted from positions with other honours (tt_find, ab)
    int defence_moves       # > 0: the defence plays only its first cards (Core.probe)
    int deal_tricks         # tricks of a whole deal (1 << 30 when not given): the
                            # scan and the defence's first lead depend on it


# ---------------------------------------------------------------------------
# make / undo

cdef inline int seat_at(Pos* p, int i) noexcept nogil:
    """Seat of the ``i``-th card of the current trick (no division)."""
    cdef int q = p.leader + i
    return q - p.np if q >= p.np else q


cdef inline int led_suit(Pos* p) noexcept nogil:
    """Suit of the current trick (-1 if none but the Excuse), kept by make."""
    return p.tled[p.ply]


cdef inline int trick_best(Pos* p) noexcept nogil:
    """Index in the trick of the card winning so far (-1 if none but the Excuse)."""
    return p.tbest[p.ply]


cdef inline void trick_step(Pos* p, int k, int* led, int* best) noexcept nogil:
    """Fold the trick's card ``k`` into the led suit and winning index of the
    cards before it (:func:`led_suit`, :func:`trick_best`)."""
    cdef int c = p.trick[k], b
    if c == EXCUSE:
        return
    if led[0] < 0:
        led[0] = CARD_SUIT[c]
        best[0] = k
        return
    b = p.trick[best[0]]
    if c >= 56:
        if b < 56 or c > b:
            best[0] = k
    elif b < 56 and CARD_SUIT[c] == led[0] and c > b:
        best[0] = k


cdef inline void finish_trick(Pos* p, Undo* u, int best) noexcept nogil:
    cdef int i, c, pc, wi, winner, wc, last, slam_lead
    u.completed = 1
    u.old_leader = p.leader
    u.old_taker_hp = p.taker_hp
    u.old_fixed = p.fixed
    u.old_won0 = p.won[0]
    u.old_won1 = p.won[1]
    # (memcpy of a constant size, which the compiler writes out as moves: a
    # loop here became a call to memmove, the undo record lying inside *p)
    memcpy(u.trick_cards, p.trick, sizeof(p.trick))
    last = p.tricks_left == 1
    slam_lead = last and p.trick[0] == EXCUSE and p.won[p.camp[p.leader]]
    if slam_lead:
        wi = 0
    else:
        wi = best
    winner = seat_at(p, wi)
    u.win_card = p.trick[wi]
    wc = p.camp[winner]
    for i in range(p.np):
        c = p.trick[i]
        if c == EXCUSE and not slam_lead:
            pc = p.camp[seat_at(p, i)]
            if last:
                if pc == 0:
                    p.taker_hp += 9
                    p.fixed += 1
            else:
                if pc == 1:
                    p.taker_hp += 8
                    p.fixed += 1
                if wc == 1:
                    p.taker_hp += 1
        elif wc == 1:
            p.taker_hp += card_value(c)
            if is_oudler_card(c):
                p.fixed += 1
    memcpy(u.old_alive, p.alive, sizeof(p.alive))
    for i in range(p.np):
        c = p.trick[i]
        if c != EXCUSE:
            p.alive[CARD_SUIT[c]] &= ~(1u << CARD_BIT[c])
    p.won[1 - wc] = 0
    p.leader = winner
    p.ntrick = 0
    p.tricks_left -= 1


cdef inline void count_card(ValueCounts* vc, int card, int d) noexcept nogil:
    """Add ``d`` copies of ``card`` (not the Excuse) to ``vc`` (no count
    goes below 0: a field's borrow would reach the next)."""
    vc.w += <uint64_t>(<int64_t>d) * VC_UNIT[card]


cdef inline int vc_n(ValueCounts* vc, int i) noexcept nogil:
    """The cards counted in ``vc`` worth ``9 - 2 * i`` half-points."""
    return (vc.w >> (8 * i)) & 0xFF


cdef inline int vc_total(ValueCounts* vc) noexcept nogil:
    """The cards counted in ``vc``."""
    return (vc.w >> 40) & 0xFF


cdef inline int vc_pts(ValueCounts* vc) noexcept nogil:
    """The half-points of the cards counted in ``vc``."""
    return <int>(vc.w >> 48)


cdef inline uint64_t low_unit(Pos* p, int seat, int card) noexcept nogil:
    """What ``card`` (not the Excuse) in ``seat``'s hand counts in ``Pos.lows``."""
    return CARD_LOW[card] << (4 * seat) if seat < p.np - 1 else 0


cdef inline void make(Pos* p, int card) noexcept nogil:
    cdef Undo* u = &p.undo[p.ply]
    cdef int seat = seat_at(p, p.ntrick)
    cdef int led = p.tled[p.ply], best = p.tbest[p.ply]
    u.card = card
    u.seat = seat
    u.completed = 0
    u.old_excuse_owner = p.excuse_owner
    if card == EXCUSE:
        p.excuse_owner = -1
    else:
        p.hand[seat][CARD_SUIT[card]] &= ~(1u << CARD_BIT[card])
        p.lows -= low_unit(p, seat, card)
        count_card(&p.vc[seat], card, -1)
    p.trick[p.ntrick] = card
    trick_step(p, p.ntrick, &led, &best)
    p.ntrick += 1
    if p.ntrick == p.np:
        finish_trick(p, u, best)
        led = -1
        best = -1
    p.ply += 1
    p.tled[p.ply] = led
    p.tbest[p.ply] = best


cdef inline void unmake(Pos* p) noexcept nogil:
    p.ply -= 1
    cdef Undo* u = &p.undo[p.ply]
    cdef int card = u.card
    if u.completed:
        p.leader = u.old_leader
        p.taker_hp = u.old_taker_hp
        p.fixed = u.old_fixed
        p.won[0] = u.old_won0
        p.won[1] = u.old_won1
        p.tricks_left += 1
        memcpy(p.trick, u.trick_cards, sizeof(p.trick))
        memcpy(p.alive, u.old_alive, sizeof(p.alive))
        p.ntrick = p.np
    p.ntrick -= 1
    p.excuse_owner = u.old_excuse_owner
    if card != EXCUSE:
        p.hand[u.seat][CARD_SUIT[card]] |= 1u << CARD_BIT[card]
        p.lows += low_unit(p, u.seat, card)
        count_card(&p.vc[u.seat], card, 1)


# ---------------------------------------------------------------------------
# move generation

cdef inline int legal_mask(Pos* p, int seat, int* suit_out) noexcept nogil:
    """Legal cards of ``seat`` as one suit's bits; ``suit_out`` gets the suit,
    or -1 when any card may be played.  The Excuse is always legal in addition."""
    cdef int suit = led_suit(p), top, i, over
    cdef uint32_t m
    if suit < 0:
        suit_out[0] = -1
        return 0
    if suit != TRUMP:
        m = p.hand[seat][suit]
        if m:
            suit_out[0] = suit
            return m
    m = p.hand[seat][TRUMP]
    if m:
        # the highest trump on the table wins the trick so far
        i = trick_best(p)
        top = p.trick[i] - 56 if i >= 0 and p.trick[i] >= 56 else -1
        over = m & ~((2 << top) - 1) if top >= 0 else m
        suit_out[0] = TRUMP
        return over if over else m
    suit_out[0] = -1
    return 0


cdef inline uint32_t camp_trumps(Pos* p, int c) noexcept nogil:
    """The trumps held by camp ``c``."""
    cdef int q
    cdef uint32_t t = 0
    for q in range(p.np):
        if p.camp[q] == c:
            t |= p.hand[q][TRUMP]
    return t


cdef inline bint slam_open(Pos* p, int c) noexcept nogil:
    """Whether camp ``1 - c`` may yet lead its Excuse to the last trick, having
    won every trick, and win it there (so that none of camp ``c``'s tricks is
    sure): it has won every trick so far and holds the Excuse, and no hand of
    camp ``c`` holds two trumps above all of its trumps (one of the two falls
    in a trick before the last and wins it)."""
    cdef int q, thr
    cdef uint32_t other
    if not (p.won[1 - c] and p.excuse_owner >= 0 and p.camp[p.excuse_owner] != c):
        return 0
    other = camp_trumps(p, 1 - c)
    thr = tc_msb(other) + 1 if other else 0
    for q in range(p.np):
        if p.camp[q] == c and tc_popcount(p.hand[q][TRUMP] >> thr) >= 2:
            return 0
    return 1


cdef inline bint sweeps(Pos* p) noexcept nogil:
    """Whether the taker, on lead and alone in his camp, surely wins every trick
    left, the Excuse's too: his camp has won every trick so far and he holds the
    Excuse; each of his plain cards beats every card of its suit the other camp
    holds; and, m being the most trumps one of its hands holds, he has m trumps
    above all of its trumps.  He leads those first (every holder must play a
    trump on each, so the m rounds leave the other camp none), then his other
    cards, each a winner that nobody can ruff, and the Excuse last: a side that
    has won every earlier trick and leads the Excuse to the last trick wins it
    (RULES.md).  His camp then takes every card left."""
    cdef int q, s, m = 0, L = p.leader
    cdef uint32_t other = 0, opp
    if p.excuse_owner != L or p.camp[L] != 1 or not p.won[1] or p.ntrick:
        return 0
    for q in range(p.np):
        if q == L:
            continue
        if p.camp[q] == 1:
            return 0
        other |= p.hand[q][TRUMP]
        if tc_popcount(p.hand[q][TRUMP]) > m:
            m = tc_popcount(p.hand[q][TRUMP])
    if m and tc_popcount(p.hand[L][TRUMP] >> (tc_msb(other) + 1)) < m:
        return 0
    for s in range(TRUMP):
        if not p.hand[L][s]:
            continue
        opp = 0
        for q in range(p.np):
            if q != L:
                opp |= p.hand[q][s]
        if opp and tc_ctz(p.hand[L][s]) < tc_msb(opp):
            return 0
    return 1


cdef inline int can_beat(Pos* p, int seat, int best_card) noexcept nogil:
    """Conservative: may ``seat`` (still to play) beat ``best_card``?"""
    cdef uint32_t t = p.hand[seat][TRUMP]
    if best_card >= 56:
        return (t >> (best_card - 56 + 1)) != 0
    if t:
        return 1
    return (p.hand[seat][best_card // 14] >> (best_card % 14 + 1)) != 0


cdef inline bint overtaken(Pos* p, int mycamp, int s, int bit, int led) noexcept nogil:
    """Whether a later player of the other camp may beat rank ``bit`` of suit
    ``s`` in that suit: a higher card of a plain suit he must follow, or a
    higher trump he may play (the suit ``led`` is trumps or he is void in it)."""
    cdef int i, q
    for i in range(p.ntrick + 1, p.np):
        q = seat_at(p, i)
        if p.camp[q] != mycamp and (p.hand[q][s] >> (bit + 1)):
            if s == TRUMP and 0 <= led < TRUMP and p.hand[q][led]:
                continue
            return 1
    return 0


cdef int gen_moves(Search* S, int* moves, int* scores, int tt_move, int* runlo, int* runhi,
                   int* vrel) noexcept nogil:
    """Candidate cards for the player on turn, merged and ordered best first.

    For partition search: ``runlo``/``runhi`` get the lowest and highest rank
    bit of the run each plain-suit move stands for (``runlo`` is -1, and
    ``runhi`` then unread, for trumps, for honours outside a value choice and
    for the Excuse; ``runhi`` has CHOICE set when the move is a value
    choice), and
    ``vrel[s]`` the rank bit of the card whose beating decided a value choice
    among cards of different values in suit ``s`` (NO_REL if none).
    """
    cdef Pos* p = &S.p
    cdef int seat = seat_at(p, p.ntrick)
    cdef int mycamp = p.camp[seat]
    cdef int lsuit, s, s0, s1, n = 0, i, j, bit, c, v, sc
    cdef int best_i = -1, best_card = -1, win_camp = -1, decided, q, seat_q
    cdef uint32_t m, others, alive, runbits, runbits2, rest
    cdef uint32_t tbl[NSUITS]         # cards on the table but the best, by suit
    cdef uint32_t tk_plain[4]          # the taker's camp's cards (defence leads)
    cdef uint32_t tk_t = 0
    cdef bint hunt = 0                 # the defence's trump leads hunt the Petit
    cdef bint trumps_first = 0         # the defence's first lead: its trumps first
    cdef int ndef = 0                  # defenders (defence leads)
    cdef int void_t[4]                 # most trumps of a defender void in each suit
    cdef int forcing = 0, ntr          # suits the taker's leads force (taker leads)
    cdef int beats, run_start, vals_seen, rhi
    cdef int trick_pts = 0, led = -1
    cdef int lm = legal_mask(p, seat, &lsuit)
    for s in range(4):
        vrel[s] = NO_REL
    for s in range(NSUITS):
        tbl[s] = 0
    if p.ntrick > 0:
        led = led_suit(p)
        best_i = trick_best(p)
        if best_i >= 0:
            best_card = p.trick[best_i]
            win_camp = p.camp[seat_at(p, best_i)]
        for i in range(p.ntrick):
            trick_pts += card_value(p.trick[i])
            c = p.trick[i]
            if c != EXCUSE and i != best_i:
                if c >= 56:
                    tbl[TRUMP] |= 1u << (c - 56)
                else:
                    tbl[c // 14] |= 1u << (c % 14)
    if p.ntrick == 0 and mycamp == 0:
        # the taker's camp's cards, for the defence's leads
        for s in range(4):
            tk_plain[s] = 0
        for q in range(p.np):
            if p.camp[q]:
                tk_t |= p.hand[q][TRUMP]
                for s in range(4):
                    tk_plain[s] |= p.hand[q][s]
            else:
                ndef += 1
        # the taker's camp holds the Petit, and the defence trumps enough
        # for each defender to follow every round of trumps it takes to
        # draw all of that camp's
        hunt = tk_t & 1 and tc_popcount(p.alive[TRUMP] & ~tk_t) >= ndef * tc_popcount(tk_t)
        trumps_first = (tk_t and p.tricks_left >= S.deal_tricks
                        and 5 * tc_popcount(tk_t) <= 2 * tc_popcount(p.alive[TRUMP] & ~tk_t))
    if p.ntrick == 0 and mycamp == 1:
        # the plain suits where some void defender holds trumps and every
        # one who does holds fewer than the leader: the taker's leads of
        # them make one of them ruff
        for s in range(4):
            void_t[s] = 0
        for q in range(p.np):
            ntr = tc_popcount(p.hand[q][TRUMP])
            if not p.camp[q] and ntr:
                for s in range(4):
                    if not p.hand[q][s] and ntr > void_t[s]:
                        void_t[s] = ntr
        ntr = tc_popcount(p.hand[seat][TRUMP])
        for s in range(4):
            if 0 < void_t[s] < ntr:
                forcing |= 1 << s
    if lsuit >= 0:
        s0 = lsuit
        s1 = lsuit + 1
    else:
        s0 = 0
        s1 = NSUITS
    for s in range(s0, s1):
        m = lm if lsuit >= 0 else p.hand[seat][s]
        if not m:
            continue
        alive = p.alive[s]
        if S.use_merge:
            # cards on the table other than the best one do not separate
            # this hand's cards: they leave with the trick, and the cards on
            # either side of them stand alike against the best card and every
            # card still to be played (then the value choice or one card per
            # value; full deals -0.8 % nodes, 10 left exact -1.5 %)
            alive &= ~tbl[s]
        others = alive & ~m
        # walk runs of touching cards of this hand (no other live card between)
        while m:
            run_start = tc_ctz(m)
            runbits = 1u << run_start
            bit = run_start
            rest = m & ~runbits
            while rest and S.use_merge:
                j = tc_ctz(rest)
                if others & ((1u << j) - 1) & ~((2u << bit) - 1):
                    break
                runbits |= 1u << j
                rest &= rest - 1
                bit = j
            m &= ~runbits
            rhi = bit
            # does a card of this run win the trick so far?
            c = card_of(s, run_start)
            if best_card < 0:
                beats = 1 if p.ntrick > 0 else 0
            elif best_card >= 56:
                beats = c >= 56 and c > best_card
            elif c >= 56:
                beats = 1
            else:
                beats = (s == best_card // 14) and c > best_card
            decided = 0
            if p.ntrick > 0:
                # camp that wins if nobody after us beats the best card
                if beats:
                    q = mycamp
                    j = c
                else:
                    q = win_camp
                    j = best_card
                decided = 1
                for i in range(p.ntrick + 1, p.np):
                    seat_q = seat_at(p, i)
                    if p.camp[seat_q] != q and can_beat(p, seat_q, j):
                        decided = 0
                        break
            # one representative per value in the run (value choice if decided)
            vals_seen = 0
            if decided and S.use_merge:
                # most valuable card to our own camp's trick, cheapest otherwise;
                # the choice rests on the rank of the card beaten or kept below
                if j < 56 and s < TRUMP and (runbits >> 10) and (runbits & (runbits - 1)):
                    if j % 14 < vrel[j // 14]:
                        vrel[j // 14] = j % 14
                sc = -1
                j = -1
                runbits2 = runbits
                while runbits2:
                    bit = tc_ctz(runbits2)
                    runbits2 &= runbits2 - 1
                    v = VAL[s][bit]
                    if j < 0 or (q == mycamp and v > sc) or (q != mycamp and v < sc):
                        sc = v
                        j = bit
                moves[n] = card_of(s, j)
                runlo[n] = run_start if s < TRUMP else -1
                runhi[n] = rhi | CHOICE
                v = VAL[s][j]
                if q == mycamp:
                    scores[n] = 2000 + v * 16 + trick_pts
                else:
                    scores[n] = 1000 - v * 16 - j
                n += 1
            else:
                runbits2 = runbits
                while runbits2:
                    bit = tc_ctz(runbits2)
                    runbits2 &= runbits2 - 1
                    v = VAL[s][bit]
                    if (vals_seen >> v) & 1 and S.use_merge:
                        continue
                    vals_seen |= 1 << v
                    c = card_of(s, bit)
                    moves[n] = c
                    # the cards this one stands for: the run's cards of its value
                    runlo[n] = run_start if s < TRUMP and bit < 10 else -1
                    runhi[n] = rhi if rhi < 10 else 9
                    if p.ntrick == 0:
                        # leads: masters of the side on lead first, else low cards
                        if not (others >> bit):
                            sc = 600 + v * 8
                        else:
                            # from the longest plain suit first (16 left: -31 %
                            # nodes on the answered positions; full deals -9 %)
                            sc = 400 - v * 8 - bit + (4 * tc_popcount(p.hand[seat][s]) if s < TRUMP else 0)
                        if s == TRUMP and trumps_first:
                            # the defence's first lead of the deal, against a
                            # taker's camp short of trumps (at most 2/5 of the
                            # defence's): its trumps first, the highest first.
                            # In a fail the proof behind such a lead is often
                            # far smaller (deal 16 4.23 M -> 48 K nodes); against
                            # a longer trump holding it was as often larger, on
                            # deals held out of the benchmark (session 33)
                            sc = 2000 + bit
                        elif s == TRUMP and mycamp == 1 and (others >> bit or p.tricks_left < 15):
                            # the taker's trump leads last (measured -34 % nodes),
                            # but for his masters early in the deal (answered
                            # full deals: -17 % nodes)
                            sc -= 300
                        elif s < TRUMP and mycamp == 1 and (forcing >> s) & 1:
                            # the taker's leads of a suit whose void defenders
                            # all hold fewer trumps than he does, before his
                            # other low leads (12 left: -51 % nodes; 15 full
                            # deals -17 %; exact margins +5-8 %)
                            sc += 100
                        elif s < TRUMP and mycamp == 0 and tk_t and not tk_plain[s]:
                            # the defence's leads of a suit the taker must ruff
                            # before its other low leads (16 left: -18 % nodes;
                            # exact margins at 14 left -4 %)
                            sc += 100
                        elif s == TRUMP and mycamp == 0 and hunt:
                            # the defence hunting the Petit: its trump leads
                            # first (deal 19: 529 K -> 12.7 K nodes)
                            sc += 1000
                        elif s == TRUMP and mycamp == 0 and (others >> bit or not tk_t):
                            # the defence's trump leads after its other leads,
                            # but for its masters while the taker holds a trump
                            # (12 left: -18 % nodes; 15 full deals -11 %)
                            sc -= 250
                    elif beats:
                        sc = 1500 - bit * 2 + trick_pts * 4 - v * 2
                        if not overtaken(p, mycamp, s, bit, led):
                            # only a ruff (or no one) can beat it: first (make/fail
                            # on the 52 full deals within 20 s: 26 -> 31 answered)
                            sc += 100
                    else:
                        # a loss, or points onto a partner's card that a later
                        # opponent may still beat (else this were a value
                        # choice): cheapest first (14 left: -15 % nodes)
                        sc = 800 - v * 16 - bit
                    scores[n] = sc
                    n += 1
    if p.excuse_owner == seat:
        moves[n] = EXCUSE
        scores[n] = 300
        runlo[n] = -1
        runhi[n] = -1
        n += 1
    # table move first, then by score (insertion sort, n is small)
    if tt_move >= 0:
        for i in range(n):
            if moves[i] == tt_move:
                scores[i] = 1000000
    for i in range(1, n):
        c = moves[i]
        sc = scores[i]
        v = runlo[i]
        rhi = runhi[i]
        j = i - 1
        while j >= 0 and scores[j] < sc:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            runlo[j + 1] = runlo[j]
            runhi[j + 1] = runhi[j]
            j -= 1
        moves[j + 1] = c
        scores[j + 1] = sc
        runlo[j + 1] = v
        runhi[j + 1] = rhi
    if S.defence_moves and mycamp == 0 and n > S.defence_moves:
        n = S.defence_moves  # a one-sided search (Core.probe)
    return n


cdef int all_legal(Pos* p, int* out) noexcept nogil:
    """Every legal card of the player on turn (no merging), in card order."""
    cdef int seat = seat_at(p, p.ntrick)
    cdef int lsuit, s, n = 0, bit
    cdef uint32_t m
    cdef int lm = legal_mask(p, seat, &lsuit)
    for s in range(NSUITS):
        if lsuit >= 0:
            m = lm if s == lsuit else 0
        else:
            m = p.hand[seat][s]
        while m:
            bit = tc_ctz(m)
            m &= m - 1
            out[n] = card_of(s, bit)
            n += 1
    if p.excuse_owner == seat:
        out[n] = EXCUSE
        n += 1
    return n


# ---------------------------------------------------------------------------
# bounds

cdef inline uint64_t vc_cards(int suit, uint32_t bits) noexcept nogil:
    """The cards ``bits`` of ``suit`` counted in a ValueCounts word (their
    VC_UNIT summed): the low cards all alike, the honours or oudlers apart."""
    if suit == TRUMP:
        return (<uint64_t>tc_popcount(bits & 0xFFFFE) * VC_UNIT[57]
                + <uint64_t>tc_popcount(bits & 0x100001) * VC_UNIT[56])
    return <uint64_t>tc_popcount(bits & 0x3FF) * VC_UNIT[0] + VC_HONOURS[(bits >> 10) & 15]


cdef inline void value_counts(Pos* p, int q, ValueCounts* vc) noexcept nogil:
    """Seat ``q``'s cards by value, counted afresh (``p.vc`` is set up so
    when a position is loaded, then kept by make and unmake)."""
    cdef int s
    vc.w = 0
    for s in range(NSUITS):
        vc.w += vc_cards(s, p.hand[q][s])


cdef inline int top_values(ValueCounts* vc, int w) noexcept nogil:
    """Half-points of the ``w`` most valuable cards counted in ``vc``."""
    cdef int i, k, total = 0
    if w >= vc_total(vc):
        return vc_pts(vc)
    for i in range(5):
        if w <= 0:
            break
        k = vc_n(vc, i)
        if k > w:
            k = w
        total += k * (9 - 2 * i)
        w -= k
    return total


cdef inline void remaining(Pos* p, ValueCounts* vc, int* rem, int* noud) noexcept nogil:
    """Half-points and oudlers still in the hands and the current trick;
    ``vc[q]`` gets the value counts of each seat's hand."""
    cdef int q
    rem[0] = 9 if p.excuse_owner >= 0 else 0
    noud[0] = 1 if p.excuse_owner >= 0 else 0
    for q in range(p.np):
        vc[q] = p.vc[q]
        rem[0] += vc_pts(&vc[q])
        noud[0] += (p.hand[q][TRUMP] & 1) + ((p.hand[q][TRUMP] >> 20) & 1)
    for q in range(p.ntrick):
        rem[0] += card_value(p.trick[q])
        if is_oudler_card(p.trick[q]):
            noud[0] += 1


cdef inline void static_bounds(Pos* p, int* lo, int* hi) noexcept nogil:
    """Bounds on the final value: the taker keeps what he has, at most wins all the rest."""
    cdef int rem, noud
    cdef ValueCounts vc[MAXP]
    remaining(p, vc, &rem, &noud)
    lo[0] = p.taker_hp - p.tgt[p.fixed]
    hi[0] = p.taker_hp + rem - p.tgt[p.fixed + noud]


cdef inline int trumps_left(Pos* p, int q, int draw) noexcept nogil:
    """At most how many trumps ``q`` still holds after ``draw`` rounds of trump
    leads, each taking one of his (an Excuse played instead saves one)."""
    return tc_popcount(p.hand[q][TRUMP]) + (q == p.excuse_owner) - draw


cdef inline int follows(Pos* p, int q, int s) noexcept nogil:
    """How many rounds of plain suit ``s`` player ``q`` can follow without
    running out of it: his cards of it, and his Excuse played on one."""
    return tc_popcount(p.hand[q][s]) + (q == p.excuse_owner)


cdef inline int lead_plan(Pos* p, int seat, int draw, int cash_draw, int kept_in, uint32_t spent,
                          bint now, int* pts, int* oud, int* rel, uint32_t* won,
                          int* lead) noexcept nogil:
    """Tricks the player on lead surely wins by drawing ``draw`` rounds of his
    master trumps, then cashing plain masters (see :func:`cash_plain`), the
    rounds of a suit capped as if ``cash_draw`` rounds had been drawn, or
    where the drawing leaves nobody a trump, by the tricks of the suit the
    defence can lead before (see below).

    ``kept_in`` says whether camp_sure counts his Petit as kept (-1: as for
    his hand of now); ``spent`` is a trump of his, no longer in his hand, that
    won a trick of its own before the plan (:func:`later_cash`); ``lead`` gets
    the number of tricks he leads in the plan.

    When the plan starts ``now`` (he is on lead), an opponent holding the
    Petit and no more trumps than the drawing has rounds (his Excuse
    saving one) must play it under one of the masters: the plan wins it
    (``won[TRUMP]`` bit 0, ``oud``).  Not for a later plan: until then its
    holder may play it where it is safe."""
    cdef int q, s, n = 0, rounds, bit, k, most = 0, lost, again, led, done
    cdef bint kept
    cdef uint32_t blk, other_s, mine, other_t = 0, holders = 0, cash_holders = 0, t, after = 0, after2 = 0
    pts[0] = 0
    oud[0] = 0
    for s in range(NSUITS):
        won[s] = 0
    for q in range(p.np):
        if q != seat and p.hand[q][TRUMP]:
            other_t |= p.hand[q][TRUMP]
            # the highest ones are left after the drawing rounds
            if trumps_left(p, q, cash_draw) > 0:
                cash_holders |= 1u << q
            rounds = trumps_left(p, q, draw)
            if rounds > 0:
                holders |= 1u << q
                if rounds > most:
                    most = rounds
                t = p.hand[q][TRUMP]
                for k in range(tc_popcount(t) - rounds):
                    t &= t - 1
                after |= t
                after2 |= t & (t - 1)
    for s in range(4):
        rel[s] = NO_REL
        mine = p.hand[seat][s]
        if not mine:
            continue
        other_s = 0
        rounds = 32
        for q in range(p.np):
            if q != seat:
                other_s |= p.hand[q][s]
                if (cash_holders >> q) & 1:
                    k = tc_popcount(p.hand[q][s])
                    if k < rounds:
                        rounds = k
        if not holders and cash_draw < draw:
            # (with cash_draw == draw nobody holding a trump caps the rounds
            # already) once the drawing has left nobody a trump all his masters win,
            # but those the defence made him play first: a trick of this suit
            # takes a card of it (or the Excuse) from every holder, so it can
            # be led at most as often as the longest other holding of it
            # allows (one more if its holder has the Excuse); he follows
            # with his low cards first
            k = 0
            for q in range(p.np):
                if q != seat and p.hand[q][s]:
                    led = follows(p, q, s)
                    if led > k:
                        k = led
            k = tc_popcount(mine) - k
            if k > rounds:
                rounds = k
        done = 0
        while mine and rounds > 0:
            bit = tc_msb(mine)
            blk = other_s
            if blk >> bit and cash_draw == draw:
                # length: his card needs only to beat the best card of each
                # player who may still hold the suit; every player follows
                # each round with one card of it (or his Excuse, once), so
                # after ``done`` rounds one with no more cards than that (and
                # his Excuse) is void, and one who played his lowest keeps
                # his best (during the drawing he can only have discarded)
                blk = 0
                for q in range(p.np):
                    if q != seat and p.hand[q][s] and follows(p, q, s) > done:
                        blk |= 1u << tc_msb(p.hand[q][s])
            if blk >> bit:
                # the card that stops the cash counts only where one more cash
                # could lower the bound: by making the leader's Excuse late
                if p.excuse_owner == seat:
                    bit = tc_msb(blk)
                    if bit < rel[s]:
                        rel[s] = bit
                break
            rel[s] = bit
            mine &= ~(1u << bit)
            won[s] |= 1u << bit
            rounds -= 1
            done += 1
            n += 1
            pts[0] += VAL[s][bit] + p.np - 1
    lead[0] = draw + n
    if draw > 0 and now:
        for q in range(p.np):
            if q != seat and p.hand[q][TRUMP] & 1 and trumps_left(p, q, draw) <= 0:
                pts[0] += VAL[TRUMP][0] - 1
                oud[0] += 1
                won[TRUMP] |= 1
    if draw > 0:
        # the leader's trumps below his masters: camp_sure counts those the
        # other camp's trumps cannot beat, one half-point per card each (the
        # leader is his camp's only holder); after the drawing fewer can
        t = p.hand[seat][TRUMP]
        for k in range(draw):
            t &= ~(1u << tc_msb(t))
        # (camp_sure counted the trumps of now, ``spent`` among them)
        lost = beaten(other_t, t | spent)
        # camp_sure may already count the Petit as kept
        kept = petit_kept(p, seat, p.hand[seat][TRUMP], 0, now, 1) if kept_in < 0 else kept_in
        if holders and (most > 1 or not (t & 1) or not (t & ~1u)):
            k = beaten(after, t)
            if t & ~1u:
                # or one more trump lead, his lowest but the Petit: every
                # holder must play a trump, keeping his highest others
                bit = tc_ctz(t & ~1u)
                again = 1 + beaten(after2, t & ~(1u << bit))
                if again < k:
                    k = again
                    lead[0] += 1
            n += lost - k
            pts[0] += (lost - k) * p.np
            if not kept and petit_kept(p, seat, t, draw, now, 1):
                pts[0] += VAL[TRUMP][0] - 1
                oud[0] += 1
                won[TRUMP] |= 1
            return n
        pts[0] -= (tc_popcount(t) - lost) * p.np
        if holders:
            # every other holder has one trump left and no Excuse: the leader
            # leads his lowest trump but the Petit and they must all play
            # theirs, so the rest win, the Petit too
            t &= ~(1u << tc_ctz(t & ~1u))
            lost -= 1
            lead[0] += 1
        # no other trump is left: all these win
        n += lost
        won[TRUMP] |= t
        while t:
            bit = tc_ctz(t)
            t &= t - 1
            pts[0] += VAL[TRUMP][bit] + p.np - 1
            if bit == 0 and kept:
                pts[0] -= VAL[TRUMP][0] - 1
            elif bit == 0:
                oud[0] += 1
    return n


cdef inline int cash_plain(Pos* p, int seat, int* pts, int* oud, int* rel, uint32_t* won,
                           int* lead) noexcept nogil:
    """Tricks the player on lead surely wins, beyond :func:`camp_sure`'s.

    A card above every other card of its suit wins its round as long as every
    other player who holds a trump still follows suit, so the rounds of a suit
    are capped by the shortest holding among those players; so does a lower
    card above the best card of every player who may still hold the suit in
    its round (length: the others' shorter holdings are gone).  When no partner
    holds a trump, the leader first leads his master trumps (above every trump
    of the other camp): each round every other player holding a trump must
    play one (or the Excuse, once), so fewer of them can ruff the cashes and
    fewer trumps are left to beat his other trumps (they keep their highest);
    when each has at most one left, one more trump lead (not the Petit)
    clears them, and with none left all his trumps win, the Petit too (then
    counted in ``oud``); else one more trump lead may still leave fewer to
    beat his others (each holder must play one).  A cash holds no trump and the leader plays one card
    per trick, so these tricks never overlap camp_sure's.  ``pts`` gets each
    winning card plus one half-point for each other card (every card is worth
    at least that; an Excuse gives its winners one), ``won`` the leader's
    winning cards counted here, by suit, and ``lead`` the tricks he leads
    before he is free to play his own Excuse, which must not be kept to the
    last trick (else no drawing).  ``rel[s]`` gets the lowest rank the count
    rests on in suit ``s`` (NO_REL if none): the cards cashed (the leader's
    cards at those ranks win wherever the lower cards lie) and, when the
    leader holds the Excuse, the other players' best card that stops the cash
    (elsewhere one more cash could only raise the count).
    """
    cdef int q, n, draw = 0
    cdef uint32_t other_t = 0
    for q in range(p.np):
        if q != seat and p.hand[q][TRUMP]:
            if p.camp[q] == p.camp[seat]:
                return lead_plan(p, seat, 0, 0, -1, 0, 1, pts, oud, rel, won, lead)
            other_t |= p.hand[q][TRUMP]
    if other_t:
        draw = tc_popcount(p.hand[seat][TRUMP] >> (tc_msb(other_t) + 1))
    n = lead_plan(p, seat, draw, draw, -1, 0, 1, pts, oud, rel, won, lead)
    if draw and p.excuse_owner == seat and p.tricks_left < lead[0] + 2:
        n = lead_plan(p, seat, 0, 0, -1, 0, 1, pts, oud, rel, won, lead)
    return n


cdef inline bint suits_safe(int np, uint8_t (*ln)[4], uint32_t* tr, int excuse, int t) noexcept nogil:
    """:func:`petit_suits_safe` on the players' numbers of cards per plain
    suit ``ln`` and their trumps ``tr`` (all the test reads)."""
    cdef int s, q, ct, n, mine_ex = excuse == t
    cdef bint more, fewer
    for s in range(4):
        ct = ln[t][s]
        more = 1
        fewer = 1
        for q in range(np):
            if q == t:
                continue
            n = ln[q][s]
            if n + (q == excuse) > ct:
                fewer = 0
            if tr[q] and n <= ct + mine_ex:
                more = 0
        if not (more or fewer):
            return 0
    return 1


cdef inline bint petit_suits_safe(Pos* p, int t) noexcept nogil:
    """Whether no plain suit can ever make the taker ``t`` (alone in his
    camp, holding the Petit, at a trick start) ruff where another trump may
    beat his, as long as he plays the plan of :func:`petit_rule`.

    In each plain suit, either every other player holding a trump holds
    more cards of it than he does (two more where he holds the Excuse), or
    no other player holds more of it than he does (his Excuse counting as
    one more card of it for its owner).  While he holds the Petit he cannot
    discard, and nor can a player holding a trump: every round of a suit
    takes one card of it from each player who holds it (but from one who
    plays the Excuse instead, once).  So in a suit of the first kind, when
    he is void in it every holder of a trump still holds it, and its next
    lead is one where he ruffs with the Petit and wins; in a suit of the
    second kind, when he is void in it so is everyone else, and nobody can
    lead it."""
    cdef uint8_t ln[MAXP][4]
    cdef uint32_t tr[MAXP]
    cdef int q, s
    for q in range(p.np):
        tr[q] = p.hand[q][TRUMP]
        for s in range(4):
            ln[q][s] = tc_popcount(p.hand[q][s])
    return suits_safe(p.np, ln, tr, p.excuse_owner, t)


cdef inline int petit_rule(Pos* p, int seat, uint32_t mine, int draw, bint excuse,
                           bint lead, bint plain=1) noexcept nogil:
    """Whether (and how) ``seat``, alone in his camp, holding the Petit and
    the trumps ``mine``, surely keeps the Petit once ``draw`` rounds of
    trumps are drawn.

    He does when his other trumps are at least ``phi``, the others' trumps (each
    holder's Excuse counting as one).  His plan, whatever else he plays: when
    a plain suit is led that he cannot follow, nobody has trumped yet and
    everyone after him must follow or holds no trump, he ruffs with the
    Petit, which then wins; otherwise he never plays the Petit while another
    player holds a trump.  Then each trick in which he must give one of his
    other trumps costs the others at least one of theirs: a trump lead makes
    every holder play a trump or his Excuse, and a ruff not covered by the
    first rule is one where someone trumped before him or a later player,
    void, must trump (or play his Excuse).  So he never runs out of other
    trumps before they do, and the Petit only falls where it wins.

    With ``lead``, on lead where his plan starts (at a trick start, and so
    still after the drawing's rounds, won by his masters; or once a later
    lead is won, :func:`later_cash`, before which he gives no trump), he
    may lead one of his other trumps once the plan of :func:`lead_plan` no
    longer needs the lead: every other holder must play a trump or his
    Excuse, so it is enough that his other trumps but one are at least
    theirs but one each.

    With ``excuse``, his Excuse counts as one more of his other trumps where
    no holder has more trumps than he has other trumps (both forms).  He
    plays it in the first trick where he must give a trump and someone else
    trumps: it costs the others one, and from then on his other trumps are
    at least theirs (the first form).  Without such a trick it goes in the
    trick before the last, and the others then hold no trump: every other
    trump of his went on his own trump leads, each taking one from every
    holder, and none held more.  So too where the one holder has one trump
    more but lacks a plain suit the taker holds: the taker's card of it can
    only go in a trick of that suit (he cannot discard while he holds the
    Petit), where that holder, void, must ruff.  Either way the Excuse is
    played before the last trick, as the bounds count it.  (Where a holder
    has more otherwise, the taker can be left on lead with the Petit and
    the Excuse, the holder keeping a trump: "T1 EX KS" against "T5 2S 3S",
    the taker on lead.)  Only where the Excuse is his to place: not in the
    plan of a later lead (:func:`later_cash`), which wins the lead with a
    trump in that first trick.

    With ``plain`` (the hands' plain cards are those of the position, at a
    trick start), the first form also keeps it where his other trumps are
    at least each holder's, not their sum, and no plain suit can make him
    ruff where another trump may beat his (:func:`petit_suits_safe`): the
    only tricks that then take one of his other trumps are trump leads,
    each taking one of every holder's.

    Returns 0 where the first form keeps it, 1 where only the second does
    (he must lead that trump), -1 where neither does.
    """
    cdef int q, s, phi = 0, phi1 = 0, most = 0, k, ex, holder = -1
    if not (p.hand[seat][TRUMP] & 1):
        return -1
    for q in range(p.np):
        if q == seat:
            continue
        if p.camp[q] == p.camp[seat]:
            return -1
        if p.hand[q][TRUMP]:
            k = trumps_left(p, q, draw)
            if k > 0:
                phi += k
                phi1 += k - 1
                if k > most:
                    most = k
                    holder = q
    k = tc_popcount(mine & ~1u)
    ex = 0
    if excuse and p.excuse_owner == seat:
        ex = most <= k
        if most == k + 1:
            # a holder with one trump more (the only one, unless the taker's
            # trump lead leaves the others none): he must ruff a suit he
            # lacks when the taker's card of it goes
            for s in range(4):
                if p.hand[seat][s] and not p.hand[holder][s]:
                    ex = 1
                    break
    if k + ex >= phi:
        return 0
    if plain and k >= most and p.ntrick == 0 and petit_suits_safe(p, seat):
        return 0
    return 1 if lead and k > 0 and k - 1 + ex >= phi1 else -1


cdef inline bint petit_kept(Pos* p, int seat, uint32_t mine, int draw, bint excuse,
                            bint lead) noexcept nogil:
    """Whether ``seat`` surely keeps the Petit (:func:`petit_rule`)."""
    return petit_rule(p, seat, mine, draw, excuse, lead) >= 0


cdef inline int beaten(uint32_t other, uint32_t mine) noexcept nogil:
    """How many of the trumps ``mine`` the trumps ``other`` can beat, at most.

    A trump loses only to a higher trump in its trick, and the tricks are
    distinct, so the losses pair off with distinct higher trumps: at most a
    maximum matching of ``other`` above ``mine``, which going up the ranks
    greedily finds."""
    cdef int n = 0, free = 0, bit
    cdef uint32_t both
    # only the other trumps above my lowest, and mine below their highest, count
    if not mine:
        return 0
    other &= ~(((mine & (~mine + 1)) << 1) - 1)
    if not other:
        return 0
    mine &= (1u << tc_msb(other)) - 1
    both = other | mine
    while both:
        bit = tc_ctz(both)
        both &= both - 1
        if (other >> bit) & 1:
            if free:
                free -= 1
                n += 1
        else:
            free += 1
    return n


cdef inline int camp_sure(Pos* p, int c, int* oud, int* ntricks, uint32_t* masters,
                          bint excuse) noexcept nogil:
    """Half-points camp ``c`` wins whatever anyone plays, with its trumps.

    A trump above every trump of the other camp (a master) wins the trick it
    falls in, whenever it is played, so no plan is needed; and of a player's
    trumps all but those the other camp's trumps can beat (:func:`beaten`)
    win their tricks.  The trumps of the camp's holder with the most such
    wins fall in distinct tricks: each master brings its own value and at
    least one half-point per other card, each other winning trump one
    half-point per card; the other members' masters add their value beyond
    the half-point already counted.  The one exception is the
    slam lead of the Excuse: while the other camp may still lead it to the
    last trick having won every trick (:func:`slam_open`), nothing is
    counted.  ``oud`` gets the oudlers among
    the masters (the 21, and the Petit when the other camp has no trump),
    ``ntricks`` the number of distinct tricks they surely win, ``masters[q]``
    each seat's master trumps and kept Petit (none for the other camp's
    seats).  ``excuse``: the Petit rule may count the taker's Excuse
    (:func:`petit_rule`).
    """
    cdef int q, bit, best_q = -1, best_n = -1, n, pts = 0, thr
    cdef uint32_t other, m
    oud[0] = 0
    ntricks[0] = 0
    for q in range(p.np):
        masters[q] = 0
    if slam_open(p, c):
        return 0
    other = camp_trumps(p, 1 - c)
    thr = tc_msb(other) + 1 if other else 0
    for q in range(p.np):
        if p.camp[q] == c:
            n = tc_popcount(p.hand[q][TRUMP]) - beaten(other, p.hand[q][TRUMP])
            if n > best_n:
                best_n = n
                best_q = q
    for q in range(p.np):
        if p.camp[q] != c:
            continue
        m = (p.hand[q][TRUMP] >> thr) << thr
        masters[q] = m
        if m & 1:
            oud[0] += 1
        if (m >> 20) & 1:
            oud[0] += 1
        while m:
            bit = tc_ctz(m)
            m &= m - 1
            pts += VAL[TRUMP][bit] + (p.np - 1 if q == best_q else -1)
    if best_q >= 0:
        pts += (best_n - tc_popcount(masters[best_q])) * p.np
        if not (masters[best_q] & 1) and petit_kept(p, best_q, p.hand[best_q][TRUMP], 0, excuse,
                                                    best_q == p.leader and p.ntrick == 0):
            # the Petit is among the winning trumps: its value beyond a half-point
            pts += VAL[TRUMP][0] - 1
            oud[0] += 1
            masters[best_q] |= 1
    ntricks[0] = best_n
    return pts


cdef inline void trump_key(Pos* p, uint64_t* k0, uint64_t* k1) noexcept nogil:
    """The first two words of the keys of the trumps' caches (forced_count,
    sure_trumps): each hand's trumps, which plain suits each hand holds and
    whether :func:`petit_suits_safe` holds for a lone taker with the Petit."""
    cdef uint64_t a = 0, b = 0, h
    cdef uint32_t suits = 0
    cdef int q, s, t = lone_taker(p)
    for q in range(p.np):
        h = p.hand[q][TRUMP]
        if q < 3:
            a |= h << (21 * q)
        else:
            b |= h << (21 * (q - 3))
        for s in range(4):
            if p.hand[q][s]:
                suits |= 1u << (4 * q + s)
    if t >= 0 and p.ntrick == 0 and p.hand[t][TRUMP] & 1 and petit_suits_safe(p, t):
        a |= 1ULL << 63     # (above the first three hands' trumps)
    k0[0] = a
    k1[0] = b | (<uint64_t>suits << 42)


cdef inline uint64_t trump_slot(uint64_t k0, uint64_t k1, uint64_t k2) noexcept nogil:
    """Where a key of the trumps' caches goes (FCACHE entries, one way)."""
    return ((k0 * 0x9E3779B97F4A7C15ULL) ^ (k1 * 0xC2B2AE3D27D4EB4FULL)
            ^ (k2 * 0x165667B19E3779F9ULL)) >> (64 - FCACHE_BITS)


cdef inline uint64_t trump_ctx(Pos* p) noexcept nogil:
    """The part of the third word of the trumps' caches' keys that both
    share: the leader, the Excuse's owner, the camps, the number of players
    and whether a trick is in progress (bit 63 set: never 0)."""
    return ((1ULL << 63) | <uint64_t>p.leader | (<uint64_t>(p.excuse_owner + 1) << 3)
            | (<uint64_t>p.camp_mask << 10) | (<uint64_t>p.np << 15) | (<uint64_t>(p.ntrick == 0) << 18))


cdef inline int sure_trumps(Pos* p, int c, int* oud, int* ntricks, uint32_t* masters, bint excuse,
                            uint64_t k0, uint64_t k1) noexcept nogil:
    """:func:`camp_sure` at a trick start, through a cache (``p.scache``):
    it depends only on the trumps and which plain suits each hand holds
    (``k0``, ``k1``: :func:`trump_key`), the leader, the Excuse's owner,
    the camps, the camps' slam flags and the arguments."""
    cdef uint64_t k2 = (trump_ctx(p) | (<uint64_t>c << 6) | (<uint64_t>excuse << 7)
                        | (<uint64_t>p.won[0] << 8) | (<uint64_t>p.won[1] << 9))
    cdef SureEntry* e = &p.scache[trump_slot(k0, k1, k2)]
    cdef int q, pts
    if e.k[0] == k0 and e.k[1] == k1 and e.k[2] == k2:
        oud[0] = e.oud
        ntricks[0] = e.ntricks
        for q in range(p.np):
            masters[q] = e.masters[q]
        return e.pts
    pts = camp_sure(p, c, oud, ntricks, masters, excuse)
    e.k[0] = k0
    e.k[1] = k1
    e.k[2] = k2
    e.oud = oud[0]
    e.ntricks = ntricks[0]
    e.pts = pts
    for q in range(p.np):
        e.masters[q] = masters[q]
    return pts


cdef inline void drop_cards(ValueCounts* vc, int suit, uint32_t bits) noexcept nogil:
    """Take the cards ``bits`` of ``suit`` out of ``vc``."""
    vc.w -= vc_cards(suit, bits)


cdef inline int camp_bound(Pos* p, ValueCounts* vc, int rem, int c, int sure, int nsure,
                           int* s_oud, uint32_t* masters, int plan_seat, uint32_t* won,
                           int ex_ok) noexcept nogil:
    """Half-points camp ``c`` is sure of with a plan: ``sure`` half-points in
    ``nsure`` distinct tricks, the cards ``won`` of ``plan_seat``'s plan among
    them (-1: none, and ``won`` is not read: it may be NULL), its Excuse played
    before the last trick when ``ex_ok``;
    or, if more, what the other camp leaves it: that camp wins at most the
    other tricks, one card of each player in each, never one of this camp's
    master trumps (nor its kept Petit) nor a card the plan wins with (an
    opponent's Petit too: ``won[TRUMP]`` bit 0 when he does not hold it).
    ``s_oud`` gains the Excuse when it counts."""
    cdef int ex_camp = p.camp[p.excuse_owner] if p.excuse_owner >= 0 else -1
    cdef int w = p.tricks_left - nsure, other_ub = 0, q, k, ex_cards = 0
    cdef uint32_t taken = 0
    cdef ValueCounts lost
    if ex_camp == c:
        if ex_ok:
            sure += 8
            s_oud[0] += 1
        elif sure > 0:
            # kept to the last trick, the camp's own Excuse may sit in one of
            # its sure tricks and go to the other camp: not the half-point
            # counted for each card there
            sure -= 1
    if plan_seat >= 0 and won[TRUMP] & 1 and not p.hand[plan_seat][TRUMP] & 1:
        taken = 1
    for q in range(p.np):
        if masters[q] or q == plan_seat or p.hand[q][TRUMP] & taken:
            lost = vc[q]
            drop_cards(&lost, TRUMP, masters[q])
            if q == plan_seat:
                for k in range(4):
                    drop_cards(&lost, k, won[k])
                drop_cards(&lost, TRUMP, won[TRUMP] & ~masters[q] & p.hand[q][TRUMP])
            else:
                drop_cards(&lost, TRUMP, p.hand[q][TRUMP] & taken)
            other_ub += top_values(&lost, w)
            if q == p.excuse_owner:
                ex_cards = vc_total(&lost)
        else:
            other_ub += top_values(&vc[q], w)
            if q == p.excuse_owner:
                ex_cards = vc_total(&vc[q])
    if ex_camp == c:
        # this camp's Excuse played before the last trick: the exchange's
        # half-point to the other camp where it falls in one of its tricks,
        # but there in place of one of the holder's w cards counted
        other_ub += (0 if ex_cards >= w else 1) if ex_ok else 9
    elif ex_camp >= 0:
        # the other camp's Excuse: 8 kept by its owners where it falls in a
        # trick of this camp's (the exchange's half-point comes here), none
        # in the last trick, 9 in a trick of its own camp's, but there in
        # place of one of the holder's w cards counted (each at least a
        # half-point): so 8 where he has w cards counted
        other_ub += 8 if ex_cards >= w else 9
    if rem - other_ub > sure:
        sure = rem - other_ub
    return sure


cdef inline int lone_taker(Pos* p) noexcept nogil:
    """The taker's seat where he is alone in his camp, else -1."""
    cdef int q, t = -1
    for q in range(p.np):
        if p.camp[q]:
            if t >= 0:
                return -1
            t = q
    return t


cdef inline int later_seat(Pos* p, uint32_t* other_t) noexcept nogil:
    """The taker's seat where :func:`later_cash` applies, else -1: alone in
    his camp, not on lead, holding a trump above every trump of the others
    (``other_t`` gets those)."""
    cdef int t = lone_taker(p)
    cdef uint32_t other = camp_trumps(p, 0)
    other_t[0] = other
    if t < 0 or t == p.leader or not p.hand[t][TRUMP]:
        return -1
    if other and not (p.hand[t][TRUMP] >> (tc_msb(other) + 1)):
        return -1
    if slam_open(p, 1):
        return -1   # the defence's slam lead of the Excuse (camp_sure counts nothing)
    return t


cdef inline int later_cash(Pos* p, int t, uint32_t drop, int draw, int* pts, int* oud, int* rel,
                           uint32_t* won, int* lead) noexcept nogil:
    """Tricks the taker ``t`` (:func:`later_seat`), not on lead, surely wins
    by playing as the leader (:func:`lead_plan`) once he has the lead: he
    draws ``draw`` rounds of his master trumps but ``drop``, then cashes his
    plain masters in the rounds the holders of trumps of now allow.

    He keeps his trumps until he must play one.  On a trump lead he plays
    his highest and wins: a round of the drawing, every holder playing a
    trump.  On a plain suit he is void in he ruffs, with the Petit where
    :func:`petit_kept` ruffs with it, else with the trump of
    :func:`ruff_trump`, and wins.  He plays a master of a plain suit he
    cashes when that suit is led, and wins too (see below).  Then he plays
    the plan with the trumps he has then: all, or all but ``drop``, the one
    that won the lead, which still counts among the trumps that won their
    tricks (``spent`` in :func:`lead_plan`).  Until then nobody who holds a trump can
    have played a card of a suit he cashes: a player with trumps cannot
    discard, and the first trick of such a suit is one he wins with its
    master, every holder of a trump following; nor can one during the
    drawing.  So each round is won as :func:`cash_plain` counts it, on the
    holdings of now, and the drawing as :func:`lead_plan` counts it, the
    others' trumps being then at most those of now.  In a suit only the
    drawing makes safe the defence could lead it before and ruff his master:
    he follows with his low cards first, and it can be led only while a
    player other than him holds a card of it, so he keeps the masters that
    this leaves him (all of them where nobody else holds it)."""
    cdef uint32_t keep = p.hand[t][TRUMP]
    cdef int n, kept = petit_kept(p, t, keep, 0, 0, 0)
    p.hand[t][TRUMP] = keep & ~drop
    n = lead_plan(p, t, draw, 0, kept, drop, 0, pts, oud, rel, won, lead)
    p.hand[t][TRUMP] = keep
    return n


cdef inline int ruff_trump(Pos* p, int t, int s) noexcept nogil:
    """The trump with which the taker ``t`` (:func:`later_seat`) wins the lead
    when the first trick in which he must play a trump is led in plain suit
    ``s``, or -1 when the defence can never lead ``s`` with him void in it.

    Before that trick no trick of ``s`` is led with him void in it, so each
    earlier trick of ``s`` takes one of his cards of it: he is void after his
    ``k`` cards of it are gone (one trick more if his Excuse goes in one of
    them), and the defence must have led ``s`` ``k + 1`` times.  A player who
    then still holds a trump cannot have discarded, so one who holds more
    than ``k`` cards of ``s`` now still holds one and must follow; only the
    others can ruff before or after him, with trumps they hold now.  He
    ruffs with his cheapest trump but the Petit above all of theirs: legal
    (above any trump played before his) and not overruffed."""
    cdef int q, k = tc_popcount(p.hand[t][s]), theirs = 0
    cdef uint32_t over = 0, cand
    for q in range(p.np):
        if q != t:
            theirs += tc_popcount(p.hand[q][s])
    if theirs <= k:
        return -1
    k += p.excuse_owner == t
    for q in range(p.np):
        if q != t and tc_popcount(p.hand[q][s]) <= k:
            over |= p.hand[q][TRUMP]
    cand = p.hand[t][TRUMP] & ~1u
    if over:
        cand &= ~((2u << tc_msb(over)) - 1)
    return tc_ctz(cand)


cdef inline int later_bound(Pos* p, ValueCounts* vc, int rem, int sure, int nsure, int s_oud,
                            uint32_t* masters, int t, uint32_t drop, int draw, int* rel) noexcept nogil:
    """The taker's low bound with the plan of :func:`later_cash`.  His Excuse
    goes in a trick he need not win before the plan starts, else after it
    (he is then on lead): at least three tricks must be left beyond the
    plan's leads."""
    cdef int n, pts, oud, lead, v
    cdef uint32_t won[NSUITS]
    n = later_cash(p, t, drop, draw, &pts, &oud, rel, won, &lead)
    s_oud += oud
    v = camp_bound(p, vc, rem, 1, sure + pts, nsure + n, &s_oud, masters, t, won,
                   p.excuse_owner == t and p.tricks_left >= lead + 3)
    return p.taker_hp + v - p.tgt[p.fixed + s_oud]


cdef inline bint petit_after(Pos* p, int t, uint32_t* hands, bint lead, bint ex) noexcept nogil:
    """Whether the taker ``t`` surely keeps the Petit (:func:`petit_rule`)
    once the trumps are ``hands``: after the leader's trick of
    :func:`forced_trumps`, which it did not fall in.  With ``lead`` (he won
    that trick) he may first draw rounds with his masters and then lead one
    other trump, as in :func:`lead_plan`; with ``ex`` his Excuse, not
    played in that trick, counts as in the rule."""
    cdef uint32_t keep[MAXP]
    cdef uint32_t other = 0, mine = hands[t]
    cdef int q, d = 0
    cdef bint kept
    if not mine & 1:
        return 0
    for q in range(p.np):
        keep[q] = p.hand[q][TRUMP]
        p.hand[q][TRUMP] = hands[q]
        if q != t:
            other |= hands[q]
    kept = petit_rule(p, t, mine, 0, ex, lead, 0) >= 0
    while lead and not kept and other and mine >> (tc_msb(other) + 1):
        mine &= ~(1u << tc_msb(mine))
        d += 1
        kept = petit_rule(p, t, mine, d, ex, 1, 0) >= 0
    for q in range(p.np):
        p.hand[q][TRUMP] = keep[q]
    return kept


cdef inline int petit_count(Pos* p, int t, uint32_t other, uint32_t* hands, bint lead,
                            bint ex, bint* kept) noexcept nogil:
    """Tricks the taker's trumps ``hands[t]`` surely win after the leader's
    trick against the defence's trumps ``other``: all but a maximum matching
    of theirs above them; where he keeps the Petit (:func:`petit_after`,
    ``kept``) the Petit wins one and the matching counts without it."""
    cdef uint32_t mine = hands[t]
    kept[0] = petit_after(p, t, hands, lead, ex)
    if kept[0]:
        mine &= ~1u
        return 1 + tc_popcount(mine) - beaten(other, mine)
    return tc_popcount(mine) - beaten(other, mine)


cdef inline void count_min(int k, bint kept, int* kn, int* kp) noexcept nogil:
    """Fold one outcome of :func:`forced_trumps` into the fewest tricks seen
    with the Petit lost (``kn``) and kept (``kp``)."""
    if kept:
        if k < kp[0]:
            kp[0] = k
    elif k < kn[0]:
        kn[0] = k


cdef inline int petit_proxy(int kn, int kp) noexcept nogil:
    """How the taker ranks outcomes of :func:`forced_trumps` where he
    chooses: tricks at four half-points, the kept Petit its value and its
    oudler's worth of target.  Any choice is sound; this one aims high."""
    return kn * 4 if kn * 4 < kp * 4 + 18 else kp * 4 + 18


cdef inline int forced_trumps(Pos* p, int t, bint one, int* kp) noexcept nogil:
    """Tricks the trumps of the taker ``t`` (alone in his camp, not on lead)
    surely win when the leader holds neither the Excuse nor a card of a
    plain suit he holds: every lead then makes him ruff, or is a trump lead
    (session 17; 15 full deals -13 % nodes); -1 where this does not apply.
    Returns the fewest over the outcomes where he may lose the Petit;
    ``kp`` gets the fewest where he surely keeps it (99: no such outcome).

    After the leader's trick the count of :func:`camp_sure` holds again on
    what is left: of his trumps all but a maximum matching of the other
    trumps above them win, and the Petit, not played in that trick, wins one
    of them where :func:`petit_rule` keeps it on the trumps left (session
    18).  A lead of a suit he lacks that no defender void in it can ruff
    above his cheapest trump that beats all their trumps is won by that
    trump (the others must follow); the defence keeps all its trumps (those
    who ruff under him lose one, which can only help him).  Where no trump
    of his beats theirs he may lose the trick, and the worst he can lose is
    his highest trump (made to overtrump a ruff before him).  A trump lead
    is counted with every choice of the defenders under the obligation to
    overtrump (:func:`trump_lead_worst`; with ``one``, only their cheapest
    legal trumps: a count at least the true one, to try first)."""
    cdef int L = p.leader, q, s, k, kn = 99, r
    cdef bint kept
    cdef uint32_t mine = p.hand[t][TRUMP], dall, rest, vs, m
    cdef uint32_t hands[MAXP]
    kp[0] = 99
    if p.excuse_owner == L or not mine:
        return -1
    for s in range(4):
        if p.hand[t][s] and p.hand[L][s]:
            return -1
    for q in range(p.np):
        hands[q] = p.hand[q][TRUMP]
    dall = camp_trumps(p, 1 - p.camp[t])
    rest = mine & ~(1u << tc_msb(mine))
    for s in range(4):
        if not p.hand[L][s]:
            continue
        vs = 0
        for q in range(p.np):
            if q != t and q != L and not p.hand[q][s]:
                vs |= p.hand[q][TRUMP]
        m = mine
        if vs:
            m &= ~((2u << tc_msb(vs)) - 1)
        if m:
            r = tc_ctz(m)
            m = mine & ~(1u << r)
            if r == 0:
                # the Petit wins this trick
                count_min(1 + tc_popcount(m) - beaten(dall, m), 1, &kn, kp)
                continue
        else:
            r = -1
            m = rest
        hands[t] = m
        k = (r >= 0) + petit_count(p, t, dall, hands, r >= 0, 1, &kept)
        count_min(k, kept, &kn, kp)
        hands[t] = mine
    if p.hand[L][TRUMP] and kn > 0:
        trump_lead_worst(p, t, 0, -1, -1, hands, one, 1, &kn, kp)
    return kn


cdef void trump_lead_worst(Pos* p, int t, int i, int top, int winner, uint32_t* hands,
                           bint one, bint ex, int* kn, int* kp) noexcept nogil:
    """The fewest tricks the taker ``t`` makes with his trumps after the
    leader's trump lead (:func:`forced_trumps`), folded into ``kn`` and
    ``kp`` (:func:`count_min`): the ``i``-th player of the trick plays,
    ``top`` being the best trump so far and ``winner`` its player; each
    defender any legal trump (one above ``top`` where he holds one, or his
    Excuse), the taker (on his own lead, any of his trumps) his lowest legal
    one, or his lowest but the Petit, or while ``ex`` his Excuse, where that
    counts more
    (:func:`petit_proxy`).  With ``one`` each defender plays only his
    cheapest legal trump: a count at least the true one."""
    cdef int q, k, b, bkn, bkp, okn, okp
    cdef bint kept
    cdef uint32_t m, m2, m3, legal, below, d = 0
    if i == p.np:
        for q in range(p.np):
            if q != t:
                d |= hands[q]
        k = (winner == t) + petit_count(p, t, d, hands, winner == t, ex, &kept)
        count_min(k, kept, kn, kp)
        return
    q = seat_at(p, i)
    m = hands[q]
    if not m:
        trump_lead_worst(p, t, i + 1, top, winner, hands, one, ex, kn, kp)
        return
    legal = m & ~((2u << top) - 1) if top >= 0 else m
    if not legal:
        legal = m
    if not one or q == t:
        # trumps with no other live trump between them play alike: the
        # lowest of each run stands for it
        for k in range(p.np):
            d |= hands[k]
        m2 = legal
        m3 = legal
        while m2:
            b = tc_ctz(m2)
            m2 &= m2 - 1
            below = d & ((1u << b) - 1)
            # (the taker's Petit is a run of its own)
            if below and (m3 >> tc_msb(below)) & 1 and (q != t or tc_msb(below) > 0):
                legal &= ~(1u << b)
    if q == t:
        # his choice: on his own lead any of his trumps, else his lowest
        # legal one or his lowest but the Petit; the best by petit_proxy
        if i > 0:
            m2 = legal & (legal - 1)
            legal = (legal & -legal) | (m2 & -m2 if legal & 1 else 0)
        bkn = -1
        bkp = -1
        while legal:
            b = tc_ctz(legal)
            legal &= legal - 1
            hands[q] = m & ~(1u << b)
            okn = 99
            okp = 99
            trump_lead_worst(p, t, i + 1, b if b > top else top, t if b > top else winner, hands, one,
                             ex, &okn, &okp)
            if bkn < 0 or petit_proxy(okn, okp) > petit_proxy(bkn, bkp):
                bkn = okn
                bkp = okp
        hands[q] = m
        if i > 0 and ex and p.excuse_owner == t:
            # or his Excuse, keeping his trumps
            okn = 99
            okp = 99
            trump_lead_worst(p, t, i + 1, top, winner, hands, one, 0, &okn, &okp)
            if petit_proxy(okn, okp) > petit_proxy(bkn, bkp):
                bkn = okn
                bkp = okp
        count_min(bkn, 0, kn, kp)
        count_min(bkp, 1, kn, kp)
        return
    if q == p.excuse_owner and not one:
        trump_lead_worst(p, t, i + 1, top, winner, hands, one, ex, kn, kp)
    if one:
        legal &= -legal
    while legal:
        b = tc_ctz(legal)
        legal &= legal - 1
        hands[q] = m & ~(1u << b)
        trump_lead_worst(p, t, i + 1, b if b > top else top, q if b > top else winner, hands, one, ex, kn, kp)
    hands[q] = m


cdef inline int trump_lead(Pos* p, int t, bint one, int* kp) noexcept nogil:
    """:func:`trump_lead_worst` from the trick's first card, on the trumps
    held now: his best trump lead, the taker ``t`` on lead."""
    cdef uint32_t hands[MAXP]
    cdef int q, kn = 99
    for q in range(p.np):
        hands[q] = p.hand[q][TRUMP]
    kp[0] = 99
    trump_lead_worst(p, t, 0, -1, -1, hands, one, 1, &kn, kp)
    return kn


cdef inline int forced_count(Pos* p, int t, bint one, int* kp, uint64_t k0, uint64_t k1) noexcept nogil:
    """:func:`trump_lead` where the taker ``t`` leads, else :func:`forced_trumps`,
    through a small cache (``p.fcache``, FCACHE entries, one way): both
    counts depend only on the trumps of each hand and which plain suits
    each hand holds (``k0``, ``k1``: :func:`trump_key`), the leader, the
    Excuse's owner, the camps and the arguments, which trick starts far
    apart in the search share (make/fail on a full deal: half the
    instructions of these counts)."""
    cdef uint64_t k2
    cdef int kn
    cdef ForcedEntry* e
    k2 = trump_ctx(p) | (<uint64_t>t << 6) | (<uint64_t>one << 9)
    e = &p.fcache[trump_slot(k0, k1, k2)]
    if e.k[0] == k0 and e.k[1] == k1 and e.k[2] == k2:
        kp[0] = e.kp
        return e.kn
    if p.leader == t:
        kn = trump_lead(p, t, one, kp)
    else:
        kn = forced_trumps(p, t, one, kp)
    e.k[0] = k0
    e.k[1] = k1
    e.k[2] = k2
    e.kn = kn
    e.kp = kp[0]
    return kn


cdef inline int plain_wins(Pos* p, int ntrumps, int* pts, int* rel) noexcept nogil:
    """Tricks the taker's plain cards surely win when he is alone in his camp
    and holds a trump; else -1.  ``ntrumps``: his trumps that win their
    tricks (:func:`camp_sure`).

    Nobody can ruff his cards of a plain suit when each other holder of a
    trump holds at least as many cards of it as he does (one more if he
    holds the Excuse): a holder of a trump cannot discard, so each trick of
    the suit takes one of his cards of it (his Excuse would save one), and
    the taker's cards of it go in its first tricks, as many as he holds
    them (one more if his Excuse goes in one).  Such a card loses only to a
    higher card of its suit in its trick, or as a discard: at most a
    maximum matching of the others' higher cards of each such suit
    (:func:`beaten`) lose the first way; his cards of the other suits may
    all lose.  He leads no trump while he holds a plain card, so he plays
    one only when the defence leads a suit he lacks, or trumps; it leads
    the current trick (when not his) and the trick after each one it wins,
    so before his first discard at most that trick, his Excuse's and the
    tricks his cards lose (those plain cards and the trumps beyond
    ``ntrumps``), and a discard needs one lead more than he has trumps:
    when those are no more than his trumps, it never comes.  On lead with
    the Petit he may have to lead one other trump (:func:`petit_rule`):
    one trump fewer for the leads.  ``pts`` gets
    his cheapest cards of each suit, that many, and one half-point for each
    other card of their tricks; ``rel[s]`` his lowest card of suit ``s``:
    the others' cards below it cannot change the matching nor who holds
    the suit."""
    cdef int q, s, t = lone_taker(p), n = 0, lost = 0, k, bit, ruff, petit_lead
    cdef uint32_t other, mine
    pts[0] = 0
    if t < 0 or not p.hand[t][TRUMP]:
        return -1
    if slam_open(p, 1):
        return -1   # the defence's slam lead of the Excuse
    for s in range(4):
        rel[s] = NO_REL
        mine = p.hand[t][s]
        if not mine:
            continue
        rel[s] = tc_ctz(mine)
        other = 0
        ruff = 0
        k = follows(p, t, s)
        for q in range(p.np):
            if q != t:
                other |= p.hand[q][s]
                ruff |= p.hand[q][TRUMP] != 0 and tc_popcount(p.hand[q][s]) < k
        if ruff:
            lost += tc_popcount(mine)   # someone may ruff them: all may lose
            continue
        k = beaten(other, mine)
        lost += k
        k = tc_popcount(mine) - k
        n += k
        while k > 0:
            bit = tc_ctz(mine)
            mine &= mine - 1
            pts[0] += VAL[s][bit] + p.np - 1
            k -= 1
    # the trump lead petit_rule may have him make
    petit_lead = petit_rule(p, t, p.hand[t][TRUMP], 0, 1, t == p.leader and p.ntrick == 0) == 1
    if lost + (p.leader != t) + (p.excuse_owner == t) + petit_lead > ntrumps:
        return -1
    return n


cdef inline int forced_value(Pos* p, ValueCounts* vc, int rem, int sure, int nsure, uint32_t* masters,
                             int t, int k, bint kept) noexcept nogil:
    """The taker's low bound (:func:`sure_bounds`) where his trumps win ``k``
    tricks after the leader's trick (:func:`forced_trumps`), the Petit among
    them where ``kept``: camp_sure's count with k tricks instead of
    ``nsure`` (his masters, the 21 among them, still bring their values,
    the Petit its value beyond a half-point and its oudler); he plays a
    trump in this trick, so his Excuse needs a later one."""
    cdef uint32_t mm[MAXP]
    cdef int q, v, oud = ((masters[t] >> 20) & 1) + kept
    cdef int ex_camp = p.camp[p.excuse_owner] if p.excuse_owner >= 0 else -1
    for q in range(p.np):
        mm[q] = masters[q]
    if kept:
        mm[t] |= 1
    if k < nsure:
        k = nsure
    v = camp_bound(p, vc, rem, 1, sure + (k - nsure) * p.np + kept * (VAL[TRUMP][0] - 1), k, &oud, mm,
                   -1, NULL, ex_camp == 1 and p.tricks_left >= 3)
    return p.taker_hp + v - p.tgt[p.fixed + oud]


cdef inline int safe_leads(uint32_t* h, int* tbest) noexcept nogil:
    """A defender's leads that a taker out of trumps cannot win: trumps, cards
    of the suits he lacks, honours above his best card of a suit (``tbest``,
    -1 where he lacks it).  Honours only, so that the count rests on no
    plain rank: counting the low cards above the taker's best cost nodes
    through the table."""
    cdef int s, n = tc_popcount(h[TRUMP])
    for s in range(4):
        if tbest[s] < 0:
            n += tc_popcount(h[s])
        else:
            n += tc_popcount(h[s] >> (tbest[s] + 1 if tbest[s] >= NO_REL else NO_REL))
    return n


cdef inline void cheapest_cards(Pos* p, int t, int k, uint32_t* lost) noexcept nogil:
    """``lost`` gets the cards ``t``, out of trumps, surely gives in ``k``
    tricks: as many of his cheapest plain cards (the low ones, then the
    honours from the Valet up), one fewer if he holds the Excuse (he may
    play it in one of them, and keep a better card)."""
    cdef int s, q
    cdef uint32_t mine
    for s in range(NSUITS):
        lost[s] = 0
    if p.excuse_owner == t:
        k -= 1
    for s in range(4):
        mine = p.hand[t][s] & ((1u << NO_REL) - 1)
        while mine and k > 0:
            lost[s] |= mine & (~mine + 1)
            mine &= mine - 1
            k -= 1
    for q in range(NO_REL, 14):
        for s in range(4):
            if k > 0 and (p.hand[t][s] >> q) & 1:
                lost[s] |= 1u << q
                k -= 1


cdef inline int lowest_above(uint32_t m, int b) noexcept nogil:
    """The lowest bit of ``m`` above bit ``b`` (``m`` must hold one)."""
    return tc_ctz(m >> (b + 1)) + b + 1


cdef inline int discard_suit(uint32_t* h, uint32_t taker_suits) noexcept nogil:
    """The suit a defender without the suit led nor a trump discards from in
    the defence's lines (:func:`chain_trick`, :func:`drawn_bound`): a suit
    the taker holds (bit ``s`` of ``taker_suits``), else his longest; -1
    where he holds no plain card.  The lowest card of it goes."""
    cdef int s, n, most = -1, c = -1
    for s in range(4):
        n = tc_popcount(h[s]) + (16 if (taker_suits >> s) & 1 else 0)
        if h[s] and n > most:
            most = n
            c = s
    return c


cdef inline int chain_trick(Pos* p, int t, uint32_t (*h)[NSUITS], int* tbest, int ldr, int lead,
                            int bit, int* winner, int* wsuit, int* wcard, bint apply) noexcept nogil:
    """One trick of :func:`lead_chain` on the defenders' hands ``h``: the
    leader ``ldr``'s card ``bit`` of suit ``lead``, then each defender in
    turn his lowest legal card (the lowest of the suit led; void, the lowest
    trump that overtrumps the best so far, else his lowest trump; void in
    trumps too, a discard: his lowest card of a suit the taker holds, else
    of his longest suit), taken out of ``h`` with ``apply``.  ``winner``
    gets the defender who wins, ``wsuit`` and ``wcard`` the card he plays;
    returns the rank the trick rests on in the suit led (NO_REL if none:
    won by a trump, or by a card of a suit nobody else played), or -1 where
    the taker could win it (a plain card not above his best of its suit)."""
    cdef int i, q, w = ldr, wbit = bit, wtrump = lead == TRUMP, c, s, others = 0
    cdef uint32_t m, taker_suits = 0
    wsuit[0] = lead
    wcard[0] = bit
    if apply:
        for s in range(4):
            if tbest[s] >= 0:
                taker_suits |= 1u << s
        h[w][lead] &= ~(1u << bit)
    for i in range(1, p.np):
        q = (ldr + i) % p.np
        if q == t:
            continue
        s = lead if h[q][lead] else TRUMP
        m = h[q][s]
        if not m:
            if apply:
                c = discard_suit(h[q], taker_suits)
                if c >= 0:
                    h[q][c] &= h[q][c] - 1
            continue
        if s == TRUMP and wtrump and tc_msb(m) > wbit:
            # must overtrump: his lowest trump that does
            c = lowest_above(m, wbit)
        else:
            c = tc_ctz(m)
        if apply:
            h[q][s] &= ~(1u << c)
        if s < TRUMP:
            others = 1
        if (s == TRUMP) > wtrump or ((s == TRUMP) == wtrump and c > wbit):
            w = q
            wbit = c
            wtrump = s == TRUMP
            wsuit[0] = s
            wcard[0] = c
    winner[0] = w
    if wtrump:
        return NO_REL
    if tbest[lead] >= 0:
        if wbit <= tbest[lead]:
            return -1
        others = 1
    return wbit if others and wbit < NO_REL else NO_REL


cdef inline int lead_chain(Pos* p, int t, int* tbest_now, int* rel,
                           uint32_t (*h)[NSUITS], bint* ex_spent) noexcept nogil:
    """Tricks the defence surely wins in a row from now, on lead against the
    taker ``t``, alone in his camp and out of trumps (``tbest_now``: his
    best card of each suit, -1 where he lacks it), the lead passing between
    the defenders as their cards decide.  (It replaced, in session 31, a
    count of the fewest safe leads a defender holds, which it always
    matched or passed.)

    A concrete line of the defence (:func:`chain_trick`): each trick, the
    leader leads his highest or his lowest card of a suit or of the trumps,
    and the others play their lowest legal cards; of the leads whose trick
    the taker cannot win, the one whose winner keeps the most safe leads
    (:func:`safe_leads`); it stops where no lead is safe.  The taker, who
    cannot ruff, can win only by following a suit he may still hold with a
    card above the trick's best, so at most his best card of it; he surely
    lacks a suit once its leads have taken all his cards of it and his
    Excuse (which could keep one; his discards only leave him fewer).  He
    has no trump to overtrump with, so his play never changes what the
    defenders must play, and the line holds whatever he plays.  ``rel[s]``
    gets the lowest rank of a plain card that won one of those tricks over
    another card of its suit (lower cards may be swapped between hands: the
    line still holds); ``h`` the hands after those tricks (the defenders'
    as the line leaves them; the taker's as now).

    A defender holding the Excuse plays it in the first of those tricks
    but the deal's last where his card would be a plain card that neither
    leads nor wins (then nobody after him plays otherwise: only a trump best
    so far changes what they must play), and keeps that card; the Excuse
    then stays with the defence (``ex_spent``), where kept to the last
    trick it would go to the taker."""
    cdef uint32_t g[NSUITS]
    cdef uint32_t keep[NSUITS]
    cdef int exd = p.excuse_owner if p.excuse_owner >= 0 and p.excuse_owner != t else -1
    cdef int tbest[4]   # his best card of a suit he may still hold, else -1
    cdef int tlen[4]    # his cards of a suit less its leads so far
    cdef int q, s, k = 0, bit, side, r, w, ldr, score, best, bw, br, bs, bb, ws, wc
    cdef int ex = p.excuse_owner == t
    ex_spent[0] = 0
    for s in range(4):
        rel[s] = NO_REL
        tlen[s] = tc_popcount(p.hand[t][s])
        tbest[s] = tbest_now[s]
    for q in range(p.np):
        for s in range(NSUITS):
            h[q][s] = p.hand[q][s]
    w = p.leader
    while k < p.tricks_left:
        best = -1
        for s in range(NSUITS):
            if not h[w][s]:
                continue
            for side in range(2):
                bit = tc_msb(h[w][s]) if side == 0 else tc_ctz(h[w][s])
                if side == 1 and bit == tc_msb(h[w][s]):
                    break
                r = chain_trick(p, t, h, tbest, w, s, bit, &bw, &ws, &wc, 0)
                if r < 0:
                    continue
                # the winner's hand after the trick
                g = h[bw]
                g[ws] &= ~(1u << wc)
                score = safe_leads(g, tbest)
                if score > best:
                    best = score
                    bs = s
                    bb = bit
                    br = r
        if best < 0:
            break
        ldr = w
        if exd >= 0:
            keep = h[exd]
        r = chain_trick(p, t, h, tbest, ldr, bs, bb, &w, &ws, &wc, 1)
        if (exd >= 0 and exd != ldr and exd != w and h[exd][TRUMP] == keep[TRUMP]
                and k + 1 < p.tricks_left):
            h[exd] = keep
            ex_spent[0] = 1
            exd = -1
        if bs < TRUMP:
            if br < rel[bs]:
                rel[bs] = br
            tlen[bs] -= 1
            if tlen[bs] + ex <= 0:
                tbest[bs] = -1
        k += 1
    return k


cdef inline int run_bound(Pos* p, ValueCounts* vc, int rem, int noud, int c_oud, uint32_t* masters,
                          int t, int k, uint32_t* lost, uint32_t (*after)[NSUITS],
                          bint ex_spent) noexcept nogil:
    """The high bound where the defence wins the next ``k`` tricks, ``lost``
    the taker's cards among them (``c_oud``: camp_sure's oudlers, no plan's).
    ``after``: the defenders' hands once a line of the defence has
    played those tricks: the cards they spent there went to the defence,
    so the taker's later tricks can only take cards from what is left;
    ``ex_spent``: the defence's Excuse was played in one of them, else it
    is played in the first trick after them where that is not the last."""
    cdef ValueCounts left[MAXP]
    cdef int q, s
    for q in range(p.np):
        left[q] = vc[q]
        if q != t:
            for s in range(4):
                drop_cards(&left[q], s, p.hand[q][s] & ~after[q][s])
            drop_cards(&left[q], TRUMP, p.hand[q][TRUMP] & ~after[q][TRUMP] & ~masters[q])
    cdef int v = camp_bound(p, left, rem, 0, k * p.np, k, &c_oud, masters, t, lost,
                            ex_spent or (p.excuse_owner >= 0 and not p.camp[p.excuse_owner]
                                         and p.tricks_left - k >= 2))
    return p.taker_hp + rem - v - p.tgt[p.fixed + noud - c_oud]


cdef inline int draw_trick(int np, uint32_t* tr, int t, int L, bint ex, uint32_t fol,
                           int* played) noexcept nogil:
    """The trumps of one trick of :func:`drawn_bound`, taken out of the
    trump hands ``tr``: the leader ``L``, a defender, leads his highest
    trump, or with ``fol`` a plain card, which the seats of mask ``fol``
    (he among them, not the taker) follow and the others must trump; each
    defender who trumps, his lowest trump above all of the taker's (and
    above the best so far) where the best so far is not, else his lowest
    legal trump (the lowest that overtrumps where he must); the taker, who
    can then beat nothing, his lowest (or with ``ex`` his Excuse: -1).
    ``played[q]`` gets seat ``q``'s trump (-1: none); returns the winner, or
    -1 where no defender's trump beats all of the taker's, or where one
    after him who does not must play one, so that which trumps he may play
    would depend on the taker's."""
    cdef int i, q, top = -1, w = L, his = tc_msb(tr[t])
    cdef bint after = 0
    cdef uint32_t m
    if L == t or not (fol or tr[L]):
        return -1
    for i in range(np):
        q = L + i - (np if L + i >= np else 0)
        m = tr[q]
        played[q] = -1
        if (fol >> q) & 1:
            continue
        if q == t:
            after = 1
            if not ex:
                played[q] = tc_ctz(m)
                tr[q] &= m - 1
            continue
        if not m:
            continue
        if i == 0:
            top = tc_msb(m)
        elif top < his and tc_msb(m) > his:
            top = lowest_above(m, his)
            w = q
        elif after and top < his:
            return -1
        elif tc_msb(m) > top:
            top = lowest_above(m, top)
            w = q
        else:
            played[q] = tc_ctz(m)
            tr[q] &= m - 1
            continue
        played[q] = top
        tr[q] &= ~(1u << top)
    return w if top > his else -1


cdef int draw_play(int np, uint32_t (*h)[NSUITS], int t, int L, bint ex, int lead,
                   uint32_t taker_suits, int* cards) noexcept nogil:
    """One trick of :func:`draw_line` on the hands ``h``, the leader ``L``
    leading trumps (``lead`` TRUMP: his highest) or his lowest card of the
    plain suit ``lead``: the trumps of :func:`draw_trick`, the seats that
    hold the suit led their lowest card of it, the defenders without it
    nor a trump their lowest card of a suit the taker holds (bit ``s`` of
    ``taker_suits``), else of their longest suit.  The cards, in the order
    played, go to ``cards`` and out of ``h``; returns the winner, or -1
    where :func:`draw_trick` cannot."""
    cdef uint32_t tr[MAXP]
    cdef int played[MAXP]
    cdef uint32_t fol = 0
    cdef int i, q, s, w
    for q in range(np):
        tr[q] = h[q][TRUMP]
        if lead < TRUMP and h[q][lead]:
            fol |= 1u << q
    w = draw_trick(np, tr, t, L, ex, fol, played)
    if w < 0:
        return -1
    for i in range(np):
        q = L + i - (np if L + i >= np else 0)
        if played[q] >= 0:
            cards[i] = 56 + played[q]
            h[q][TRUMP] &= ~(1u << played[q])
            continue
        s = lead if (fol >> q) & 1 else (-1 if q == t else discard_suit(h[q], taker_suits))
        if s < 0:
            cards[i] = EXCUSE
        else:
            cards[i] = card_of(s, tc_ctz(h[q][s]))
            h[q][s] &= h[q][s] - 1
    return w


cdef int draw_line(int np, uint32_t (*h)[NSUITS], int t, int L, bint ex, uint32_t taker_suits,
                   int* seq, int n, int* budget) noexcept nogil:
    """A line of :func:`draw_play` tricks, each won by a defender, until the
    taker ``t`` holds no trump: in each trick the leader leads trumps, or
    else a plain suit the taker lacks, which he must ruff (the first line
    found, trumps tried first, at most ``budget`` tricks tried).  The cards
    go to ``seq`` from ``n`` on; returns the number in it, or -1."""
    cdef uint32_t h2[MAXP][NSUITS]
    cdef int lead, w, r
    if not h[t][TRUMP]:
        return n
    for lead in range(TRUMP, -1, -1):
        if not h[L][lead] or (lead < TRUMP and (taker_suits >> lead) & 1) or budget[0] <= 0:
            continue
        budget[0] -= 1
        memcpy(h2, h, sizeof(uint32_t) * NSUITS * np)
        w = draw_play(np, h2, t, L, ex, lead, taker_suits, &seq[n])
        if w >= 0:
            r = draw_line(np, h2, t, w, 0, taker_suits, seq, n + np, budget)
            if r >= 0:
                return r
    return -1


cdef int drawn_bound(Pos* p, int t, bint ex, int alpha, int beta, int* hrel) noexcept nogil:
    """The high bound after the defence, on lead, draws the trumps of the
    taker ``t`` (alone in his camp), or INF where it cannot: the tricks of
    :func:`draw_line`, each won by a defender.  He must play a trump in
    each (or, ``ex``, his Excuse in the first, then one trick more is
    needed) and cannot win it.  The defenders' cards do not depend on the
    trumps he plays (each beats the highest he may still hold), so
    whichever he plays, the defenders' cards and the position once he has
    none are the same, and the bound of that position (:func:`sure_bounds`,
    where the defence's runs against a taker out of trumps apply) holds
    here.  ``hrel`` gets the ranks it rests on."""
    cdef int n, i, q, s, v = INF, lo2, budget = 32, his = tc_msb(p.hand[t][TRUMP])
    cdef uint32_t taker_suits = 0, above = 0
    cdef int rel_a[4]
    cdef int rel_b[4]
    cdef int seq[MAXPLY]
    cdef uint32_t h[MAXP][NSUITS]
    # each trick spends a defender's trump above all of the taker's
    for q in range(p.np):
        if q != t:
            above |= p.hand[q][TRUMP] >> (his + 1)
    if tc_popcount(above) < tc_popcount(p.hand[t][TRUMP]) + ex:
        return INF
    for s in range(4):
        if p.hand[t][s]:
            taker_suits |= 1u << s
    for q in range(p.np):
        for s in range(NSUITS):
            h[q][s] = p.hand[q][s]
    n = draw_line(p.np, h, t, p.leader, ex, taker_suits, seq, 0, &budget)
    if n < 0:
        return INF
    for i in range(n):
        make(p, seq[i])
    sure_bounds(p, &lo2, &v, rel_a, rel_b, hrel, alpha, beta, 1)
    for i in range(n):
        unmake(p)
    return v


cdef int drawn_high(Pos* p, int alpha, int beta, int* hrel) noexcept nogil:
    """:func:`drawn_bound` at a trick start where the defence leads against
    a taker alone in his camp who holds trumps (else INF): the worse for
    the defence of his keeping his Excuse through the drawing and his
    playing it there."""
    cdef int t = lone_taker(p), v, v2
    cdef int rel2[4]
    if t < 0 or p.camp[p.leader] or not p.hand[t][TRUMP]:
        return INF
    v = drawn_bound(p, t, 0, alpha, beta, hrel)
    if v < INF and p.excuse_owner == t:
        v2 = drawn_bound(p, t, 1, alpha, beta, rel2)
        if v2 > v:
            v = v2
        rel_union(hrel, rel2)
    return v


# ---------------------------------------------------------------------------
# the taker's tricks in an abstract game (abs_bound)
#
# The game keeps each hand's trumps, the Excuse and its number of cards per
# plain suit, and drops the plain ranks: where no trump falls in a trick of a
# plain suit, the defence names its winner among the players who followed
# the suit.  Every line of the real game is a line of this one (the winner
# the ranks give is among those the defence may name), and the defence has
# every choice it has in the real game, so the tricks the taker's camp is
# sure of here it is sure of in the real game.  The trump count of
# camp_sure pairs each defence trump with a lower trump of the taker's in a
# trick of its own; this game sees what stops that: trumps led make every
# holder play one, a defender who still holds the suit led cannot overruff,
# and a trump played before the taker's must be overtrumped.

DEF ACACHE_BITS = 17
DEF ACACHE = 1 << ACACHE_BITS
DEF ABS_DEPTH = 3        # tricks the game looks ahead (see abs_bound)
DEF ABS_BUDGET = 3000    # trick starts of the game per question
DEF ABS_LOST = -100      # a line the taker's camp refuses (its Excuse kept to the last trick)

cdef struct Abs:
    int np
    uint8_t camp[MAXP]
    uint32_t tr[MAXP]           # trumps
    uint8_t ln[MAXP][4]         # cards per plain suit
    int excuse                  # seat, or -1
    int won                     # bit c: camp c has won every finished trick
    int camp_bits
    int kp                      # the taker's Petit must be kept (abs_bound)
    int64_t nodes
    int aborted
    AbsEntry* cache


cdef inline void abs_key(Abs* A, int leader, int left, int depth, uint64_t* k) noexcept nogil:
    """The state of the game at a trick start (four players at most), and
    the look-ahead ``depth`` its value is for."""
    cdef int q, s
    k[0] = (<uint64_t>A.tr[0] | (<uint64_t>A.tr[1] << 21) | (<uint64_t>A.tr[2] << 42))
    k[1] = (<uint64_t>A.tr[3] | (<uint64_t>(A.excuse + 1) << 21) | (<uint64_t>leader << 24)
            | (<uint64_t>A.won << 27) | (<uint64_t>left << 29) | (<uint64_t>A.camp_bits << 34)
            | (<uint64_t>depth << 39) | (<uint64_t>A.kp << 44) | (1ULL << 63))
    k[2] = 0
    for q in range(A.np):
        for s in range(4):
            k[2] |= <uint64_t>A.ln[q][s] << (16 * q + 4 * s)


cdef inline AbsEntry* abs_slot(Abs* A, uint64_t* k) noexcept nogil:
    cdef uint64_t h = (k[0] * 0x9E3779B97F4A7C15ULL) ^ (k[1] * 0xC2B2AE3D27D4EB4FULL) ^ (k[2] * 0x165667B19E3779F9ULL)
    return &A.cache[(h >> 40) & (ACACHE - 1)]


cdef inline uint32_t abs_runs(uint32_t pool, uint32_t live) noexcept nogil:
    """The lowest trump of each run of ``pool``: trumps with no other live
    trump between them are alike in this game (only their order counts)."""
    cdef uint32_t out = 0, m = pool, below
    cdef int b
    while m:
        b = tc_ctz(m)
        m &= m - 1
        below = live & ((1u << b) - 1)
        if not below or not (pool >> tc_msb(below)) & 1:
            out |= 1u << b
    return out


cdef inline bint abs_petit_safe(Abs* A, int t) noexcept nogil:
    """Whether the taker ``t``, alone in his camp, holding the Petit at a
    trick start of the game, surely keeps it: :func:`petit_rule`'s first
    form (his other trumps at least all the others', each holder's Excuse
    counting as one), or its form with the plain suits
    (:func:`petit_suits_safe`), which reads only the suits' lengths, and
    the game keeps them.  Either plan only says when he plays the Petit, so
    it holds alongside the matching's count of his tricks, which holds
    however he plays."""
    cdef int q, phi = 0, most = 0, k
    for q in range(A.np):
        if q != t and A.tr[q]:
            k = tc_popcount(A.tr[q]) + (q == A.excuse)
            phi += k
            if k > most:
                most = k
    k = tc_popcount(A.tr[t] & ~1u)
    return k >= phi or k >= most and suits_safe(A.np, A.ln, A.tr, A.excuse, t)


cdef int abs_trick(Abs* A, int leader, int left, int depth, int i, int led, int best_t, int best_seat,
                   int followers, uint32_t played_t, bint ex_lead, int alpha, int beta) noexcept nogil:
    """The taker's camp's tricks among the ``left`` still to play (fail-soft
    on (alpha, beta)), from card ``i`` of the trick (``led``: -1 before a
    card other than the Excuse, a plain suit, or TRUMP; ``followers``: the
    seats that played the plain suit led); after the last card, the
    trick's winner.  Trick starts (``i`` 0) go through the cache.  With
    ``A.kp``, a line where the taker's Petit falls to the defence is
    refused (ABS_LOST), and so is a look-ahead that ends with it held
    where :func:`abs_petit_safe` does not keep it."""
    cdef int q, w, s, b, v, best, mx, n = 0, c, won0, lo = 0, hi = left, held = 0
    cdef int moves[32]
    cdef uint32_t others, pool, m, live
    cdef uint64_t k[3]
    k[0] = k[1] = k[2] = 0  # (set with e at a trick start, read only there; gcc cannot tell)
    cdef AbsEntry* e = NULL
    if i == 0:
        if left == 0:
            return 0
        if left == 1 and A.excuse >= 0 and A.camp[A.excuse]:
            return ABS_LOST
        if depth == 0:
            # beyond the look-ahead: the trumps no matching can beat
            best = 0
            others = 0
            for q in range(A.np):
                if not A.camp[q]:
                    others |= A.tr[q]
            for q in range(A.np):
                if A.camp[q]:
                    if A.kp and A.tr[q] & 1 and others and not abs_petit_safe(A, q):
                        return ABS_LOST
                    v = tc_popcount(A.tr[q]) - beaten(others, A.tr[q])
                    if v > best:
                        best = v
            return best
        abs_key(A, leader, left, depth, k)
        e = abs_slot(A, k)
        if e.k[0] == k[0] and e.k[1] == k[1] and e.k[2] == k[2]:
            lo = e.lo
            hi = e.hi
            if lo >= beta or hi <= alpha or lo == hi:
                return lo if lo >= beta or lo == hi else hi
            if lo - 1 > alpha:
                alpha = lo - 1
            if hi + 1 < beta:
                beta = hi + 1
        A.nodes += 1
        if A.nodes > ABS_BUDGET:
            A.aborted = 1
            return 0
        lo = alpha
        hi = beta
    if i == A.np:
        # who wins: the slam lead of the Excuse, the highest trump, or the
        # player the defence names among those who followed the suit
        if left == 1 and ex_lead and (A.won >> A.camp[leader]) & 1:
            followers = 1 << leader
        elif best_t >= 0:
            followers = 1 << best_seat
        won0 = A.won
        best = INF
        for w in range(A.np):
            if not (followers >> w) & 1:
                continue
            c = A.camp[w]
            if A.kp and not c and played_t & 1:
                v = ABS_LOST
            else:
                A.won = won0 & (1 << c)
                v = c + abs_trick(A, w, left - 1, depth - 1, 0, -1, -1, -1, 0, 0, 0, alpha - c, beta - c)
                A.won = won0
            if A.aborted:
                return 0
            if v < best:
                best = v
                if v <= alpha:
                    break
        return best
    q = leader + i
    if q >= A.np:
        q -= A.np
    mx = A.camp[q]
    # the moves: 0-3 a card of that suit, 8 + b the trump b (the lowest
    # first), 4 the Excuse (last): near the median's makes, a third to a
    # half fewer calls than the highest trump and the Excuse first
    if led >= 0 and led < 4 and A.ln[q][led]:
        moves[n] = led
        n += 1
    else:
        # a lead: any suit and any trump; void in the suit led: a trump
        # (above the best one where he can), without trumps any suit
        if led < 0 or not A.tr[q]:
            if led < 0 and not mx:
                # the defence's leads: first the suits its opponents all
                # hold, whose tricks it wins (near the median's makes, a
                # fifth to a quarter fewer calls)
                held = 15
                for w in range(A.np):
                    if A.camp[w]:
                        for s in range(4):
                            if not A.ln[w][s]:
                                held &= ~(1 << s)
            # (the suits of ``held`` in a first pass, the others in a second)
            for s in range(8):
                if A.ln[q][s & 3] and ((held >> (s & 3)) & 1) == (s < 4):
                    moves[n] = s & 3
                    n += 1
        if A.tr[q]:
            others = played_t
            for w in range(A.np):
                if w != q:
                    others |= A.tr[w]
            pool = A.tr[q]
            if led >= 0 and best_t >= 0 and pool >> (best_t + 1):
                pool = pool >> (best_t + 1) << (best_t + 1)
            live = others | A.tr[q]
            # (the Petit kept apart where it must be kept)
            m = abs_runs(pool & ~1u, live) | (pool & 1) if A.kp and mx else abs_runs(pool, live)
            while m:
                b = tc_ctz(m)
                m &= m - 1
                moves[n] = 8 + b
                n += 1
    if A.excuse == q:
        moves[n] = 4
        n += 1
    best = -INF if mx else INF
    for w in range(n):
        c = moves[w]
        if c == 4:
            A.excuse = -1
            v = abs_trick(A, leader, left, depth, i + 1, led, best_t, best_seat, followers, played_t,
                          i == 0, alpha, beta)
            A.excuse = q
        elif c < 4:
            A.ln[q][c] -= 1
            s = c if led < 0 else led
            v = abs_trick(A, leader, left, depth, i + 1, s, best_t, best_seat,
                          followers | ((1 << q) if c == s else 0), played_t, ex_lead, alpha, beta)
            A.ln[q][c] += 1
        else:
            b = c - 8
            A.tr[q] &= ~(1u << b)
            if b > best_t:
                v = abs_trick(A, leader, left, depth, i + 1, TRUMP if led < 0 else led, b, q, followers,
                              played_t | (1u << b), ex_lead, alpha, beta)
            else:
                v = abs_trick(A, leader, left, depth, i + 1, TRUMP if led < 0 else led, best_t, best_seat,
                              followers, played_t | (1u << b), ex_lead, alpha, beta)
            A.tr[q] |= 1u << b
        if A.aborted:
            return 0
        if mx:
            if v > best:
                best = v
                if v > alpha:
                    alpha = v
                    if v >= beta:
                        break
        else:
            if v < best:
                best = v
                if v < beta:
                    beta = v
                    if v <= alpha:
                        break
    if i == 0:
        # (lo, hi: the window searched)
        if not (e.k[0] == k[0] and e.k[1] == k[1] and e.k[2] == k[2]):
            e.k[0] = k[0]
            e.k[1] = k[1]
            e.k[2] = k[2]
            e.lo = ABS_LOST
            e.hi = left
        if best <= lo:
            if best < e.hi:
                e.hi = best
        elif best >= hi:
            if best > e.lo:
                e.lo = best
        else:
            e.lo = best
            e.hi = best
    return best


cdef inline void abs_load(Pos* p, Abs* A) noexcept nogil:
    """The abstract game's state at the trick start ``p``."""
    cdef int q, s
    A.np = p.np
    A.camp_bits = 0
    for q in range(MAXP):
        # (the seats beyond the players empty: the key reads four)
        A.camp[q] = p.camp[q] if q < p.np else 0
        A.camp_bits |= A.camp[q] << q
        A.tr[q] = p.hand[q][TRUMP] if q < p.np else 0
        for s in range(4):
            A.ln[q][s] = tc_popcount(p.hand[q][s]) if q < p.np else 0
    A.excuse = p.excuse_owner
    A.won = p.won[0] | (p.won[1] << 1)
    A.nodes = 0
    A.aborted = 0
    A.kp = 0
    A.cache = p.acache


cdef inline int abs_at(Pos* p, ValueCounts* vc, int rem, int n, int pts, int oud,
                       uint32_t* masters, bint ex_ok) noexcept nogil:
    """The taker's camp's low bound where it wins ``n`` tricks, ``pts``
    half-points in them and ``oud`` oudlers (abs_bound)."""
    cdef int o = oud
    cdef int v = camp_bound(p, vc, rem, 1, pts, n, &o, masters, -1, NULL, ex_ok)
    return p.taker_hp + v - p.tgt[p.fixed + o]


cdef int abs_ask(Pos* p, ValueCounts* vc, int rem, int beta, int lo_n, int hi_n, int pts, int oud,
                 uint32_t* masters, bint ex_ok, bint kp) noexcept nogil:
    """:func:`abs_bound`'s question: the bound for the least n in (lo_n,
    hi_n] whose count reaches ``beta``, where the game (with ``kp``, the
    taker's Petit kept) gives the taker's camp n tricks; else -INF.  The
    camp's ``masters`` win whenever they are played: ``pts`` holds their
    values beyond the half-point counted for each card, ``oud`` their
    oudlers."""
    cdef int n, v, best, known_lo = ABS_LOST, known_hi = p.tricks_left
    cdef Abs A
    cdef uint64_t k[3]
    cdef AbsEntry* e
    # the bound grows with n: the least n that reaches beta, by bisection
    best = abs_at(p, vc, rem, hi_n, pts + hi_n * p.np, oud, masters, ex_ok)
    if best < beta:
        return -INF
    abs_load(p, &A)
    A.kp = kp
    abs_key(&A, p.leader, p.tricks_left, ABS_DEPTH, k)
    e = abs_slot(&A, k)
    if e.k[0] == k[0] and e.k[1] == k[1] and e.k[2] == k[2]:
        known_lo = e.lo
        known_hi = e.hi
    while hi_n - lo_n > 1:
        n = (lo_n + hi_n) // 2
        v = abs_at(p, vc, rem, n, pts + n * p.np, oud, masters, ex_ok)
        if v >= beta:
            hi_n = n
            best = v
        else:
            lo_n = n
    if known_hi < hi_n:
        return -INF
    if known_lo >= hi_n:
        return best
    v = abs_trick(&A, p.leader, p.tricks_left, ABS_DEPTH, 0, -1, -1, -1, 0, 0, 0, hi_n - 1, hi_n)
    if A.aborted or v < hi_n:
        return -INF
    return best


cdef int abs_bound(Pos* p, ValueCounts* vc, int rem, int beta, int nsure) noexcept nogil:
    """The taker's camp's low bound from n tricks of the abstract game, for
    the least n that reaches ``beta``, where the game gives them (looking
    ``ABS_DEPTH`` tricks ahead, then counting the trumps no matching can
    beat; at most ABS_BUDGET of its trick starts); else -INF.  Each of the
    n tricks brings a half-point per card, and the camp's master trumps
    (above all of the defence's) their values, as each wins whenever it is
    played; the rest as :func:`camp_bound` counts it.  Not where the
    defence may still lead its Excuse to a slam (a master kept to the last
    trick would lose).  ``nsure``: the tricks camp_sure's matching gives;
    the look-ahead gains about a trick a trick.  Three tricks ahead
    (two until session 31) see more of a long trump hand's drawing: the
    makes near the median 15-99 % fewer nodes, the fails the same, in
    about the same time (a four times larger cache keeps the deeper
    game's states).

    A lone taker holding the Petit (not a master) is first asked for his
    tricks with the Petit kept (:func:`abs_trick` with ``kp``): where the
    game keeps it, it wins one of his tricks, brings its value and its
    oudler, and the defence cannot take it (in session 28's samples of a
    make proof, the bound at the game's own trick count was 14 points
    higher, and it cut at 49 of 60 trick starts against none)."""
    cdef uint32_t other = camp_trumps(p, 0)
    cdef int thr = tc_msb(other) + 1 if other else 0
    cdef uint32_t masters[MAXP]
    cdef uint32_t m
    cdef int q, bit, nm = 0, pts = 0, oud = 0, hi_n, v, t = -1
    cdef int ex_camp = p.camp[p.excuse_owner] if p.excuse_owner >= 0 else -1
    cdef bint ex_ok = ex_camp == 1 and p.tricks_left >= 2
    if slam_open(p, 1):
        return -INF
    for q in range(p.np):
        masters[q] = 0
        if not p.camp[q]:
            continue
        m = (p.hand[q][TRUMP] >> thr) << thr
        masters[q] = m
        oud += (m & 1) + ((m >> 20) & 1)
        while m:
            bit = tc_ctz(m)
            m &= m - 1
            pts += VAL[TRUMP][bit] - 1
            nm += 1
    hi_n = min(p.tricks_left, max(nsure + ABS_DEPTH, nm))
    t = lone_taker(p)
    if t >= 0 and p.hand[t][TRUMP] & ~masters[t] & 1:
        masters[t] |= 1
        v = abs_ask(p, vc, rem, beta, nm, min(p.tricks_left, max(hi_n, nm + 1)),
                    pts + VAL[TRUMP][0] - 1, oud + 1, masters, ex_ok, 1)
        if v > -INF:
            return v
        masters[t] &= ~1u
    return abs_ask(p, vc, rem, beta, nm - 1, hi_n, pts, oud, masters, ex_ok, 0)


cdef int abs_low(Pos* p, int beta) noexcept nogil:
    """:func:`abs_bound` at a trick start, for the search: asked only where
    the table has not cut (it costs more than the other sure bounds)."""
    cdef ValueCounts vc[MAXP]
    cdef uint32_t masters[MAXP]
    cdef uint64_t tk0, tk1
    cdef int rem, noud, oud, nsure
    if p.np > 4 or p.tricks_left < 2:
        return -INF
    remaining(p, vc, &rem, &noud)
    trump_key(p, &tk0, &tk1)
    sure_trumps(p, 1, &oud, &nsure, masters, 1, tk0, tk1)
    return abs_bound(p, vc, rem, beta, nsure)


cdef void sure_bounds(Pos* p, int* lo, int* hi, int* rel, int* trel, int* hrel, int alpha,
                      int beta, bint hi_only=0, bint draw=0) noexcept nogil:
    """Bounds on the final value at a trick start, from what each camp is sure of.

    For each camp, a plan that needs no search: win the tricks its trumps
    surely win (:func:`camp_sure`), on lead draw trumps and cash plain
    masters (:func:`cash_plain`), and play its Excuse before the last trick
    (8 half-points and an oudler); for a taker not on lead, also the plan of
    :func:`later_cash`; for a taker alone in his camp, his trumps counted
    after this trick where every lead of the leader makes him ruff or is a
    trump lead (:func:`forced_trumps`), or where he leads a trump himself
    (:func:`trump_lead`).  Then the camp gets at least what the plan brings
    (:func:`camp_bound`).  Low bound: the taker's camp's plan; high bound:
    the defence's plan, not computed (``hi`` gets INF) when the low bound
    already reaches ``beta``; where the defence leads against a taker out
    of trumps and that bound is above ``alpha``, also the tricks it wins in
    a row (:func:`lead_chain`).  ``rel`` gets the
    plain ranks the leader's plan rests on, ``trel`` those of
    :func:`later_cash` or :func:`plain_wins` where the low bound rests on
    one of them (else NO_REL),
    ``hrel`` those the high bound rests on.  With ``hi_only``, the high
    bound alone (``lo`` gets -INF); with ``draw``, also the defence's
    drawing of the taker's trumps (:func:`drawn_high`), which the search
    asks for only where the table does not cut (it costs a trick played
    out and the bounds after it).
    """
    cdef int rem, noud, s_oud, sure, ncash = 0, cpts = 0, coud = 0, nlead, c, k, lead_camp = p.camp[p.leader]
    cdef int ex_camp = p.camp[p.excuse_owner] if p.excuse_owner >= 0 else -1
    cdef int nsure, v, c_oud, lo2, lo3, tseat, bit
    cdef ValueCounts vc[MAXP]
    cdef uint32_t masters[MAXP]
    cdef uint32_t lmasters[MAXP]
    cdef uint32_t* lm
    cdef int l_sure, l_nsure, l_oud, kp
    cdef int tbest[4]
    cdef uint32_t cashed[NSUITS]
    cdef uint32_t lost[NSUITS]
    cdef uint32_t after[MAXP][NSUITS]
    cdef bint ex_spent
    cdef uint32_t mt, other_t, tried
    cdef uint64_t tk0, tk1
    cdef int rel2[4]
    cdef int rel3[4]
    remaining(p, vc, &rem, &noud)
    if sweeps(p):
        # every card left to the taker's camp: the static high bound, reached
        # (resting on every plain card's owner)
        hi[0] = p.taker_hp + rem - p.tgt[p.fixed + noud]
        lo[0] = -INF if hi_only else hi[0]
        for k in range(4):
            rel[k] = 0
            trel[k] = 0
            hrel[k] = 0
        return
    trump_key(p, &tk0, &tk1)
    ncash = cash_plain(p, p.leader, &cpts, &coud, rel, cashed, &nlead)
    for k in range(4):
        trel[k] = NO_REL
    lo[0] = -INF
    for c in range(0 if hi_only else 1, -1, -1):
        sure = sure_trumps(p, c, &s_oud, &nsure, masters, 1, tk0, tk1)
        c_oud = s_oud   # camp_sure's oudlers, before any plan's
        if c == lead_camp:
            v = camp_bound(p, vc, rem, c, sure + cpts, nsure + ncash, &s_oud, masters, p.leader, cashed,
                           ex_camp == c and p.tricks_left >= (nlead + 2 if p.excuse_owner == p.leader else 2))
            s_oud += coud
        else:
            v = camp_bound(p, vc, rem, c, sure, nsure, &s_oud, masters, -1, cashed,
                           ex_camp == c and p.tricks_left >= 2)
        if c == 1:
            lo[0] = p.taker_hp + v - p.tgt[p.fixed + s_oud]
            if lo[0] < beta and c != lead_camp:
                tseat = later_seat(p, &other_t)
                if tseat >= 0:
                    lm = masters
                    l_sure = sure
                    l_nsure = nsure
                    l_oud = c_oud
                    if p.excuse_owner == tseat and masters[tseat] & 1:
                        # the later plan wins the lead with a trump where the
                        # Petit rule's Excuse would go: count without it
                        lm = lmasters
                        l_sure = sure_trumps(p, 1, &l_oud, &l_nsure, lm, 0, tk0, tk1)
                    lo2 = later_bound(p, vc, rem, l_sure, l_nsure, l_oud, lm, tseat, 0, 0, rel2)
                    if lo2 > lo[0]:
                        lo[0] = lo2
                        for k in range(4):
                            trel[k] = rel2[k]
                    if lo[0] < beta and other_t:
                        # with the drawing, the worst of the ways he wins the
                        # lead: his highest trump on a trump lead (a round of
                        # the drawing: every holder plays a trump) or a master
                        # of a suit he cashes (all kept); a ruff of a plain
                        # suit (ruff_trump); the Petit, where the Petit rule
                        # ruffs with it
                        mt = p.hand[tseat][TRUMP] >> (tc_msb(other_t) + 1) << (tc_msb(other_t) + 1)
                        lo2 = later_bound(p, vc, rem, l_sure, l_nsure, l_oud, lm, tseat,
                                          0, tc_popcount(mt), rel2)
                        tried = 0
                        for k in range(4):
                            bit = ruff_trump(p, tseat, k)
                            if bit < 0 or (tried >> bit) & 1:
                                continue
                            tried |= 1u << bit
                            lo3 = later_bound(p, vc, rem, l_sure, l_nsure, l_oud, lm, tseat,
                                              1u << bit, tc_popcount(mt) - ((mt >> bit) & 1), rel3)
                            if lo3 < lo2:
                                lo2 = lo3
                            rel_union(rel2, rel3)
                        if lm[tseat] & 1:
                            # camp_sure counts the Petit kept
                            lo3 = later_bound(p, vc, rem, l_sure, l_nsure, l_oud, lm, tseat,
                                              1, tc_popcount(mt), rel3)
                            if lo3 < lo2:
                                lo2 = lo3
                            rel_union(rel2, rel3)
                        if lo2 > lo[0]:
                            lo[0] = lo2
                            for k in range(4):
                                trel[k] = rel2[k]
            if lo[0] < beta:
                k = plain_wins(p, nsure, &v, rel3)
                if k > 0:
                    v = camp_bound(p, vc, rem, 1, sure + v, nsure + k, &c_oud, masters, -1, cashed,
                                   ex_camp == 1 and p.tricks_left >= 2)
                    lo2 = p.taker_hp + v - p.tgt[p.fixed + c_oud]
                    if lo2 > lo[0]:
                        lo[0] = lo2
                        for k in range(4):
                            trel[k] = rel3[k]
            if lo[0] < beta and not slam_open(p, 1):
                # the leader's every lead makes the taker ruff (or is a trump
                # lead); or the taker leads a trump
                tseat = lone_taker(p)
                # (each of his trumps wins one trick at most: nothing to
                # count where camp_sure gives them all already)
                if (tseat >= 0 and not masters[tseat] & 1
                        and tc_popcount(p.hand[tseat][TRUMP]) > nsure):
                    # first with the defenders' cheapest replies only (a count
                    # at least the true one): only a cut needs the true count
                    # (but Core.bounds, whose beta is INF, wants the bound)
                    for bit in range(1, -1, -1):
                        k = forced_count(p, tseat, bit, &kp, tk0, tk1)
                        if k <= nsure:
                            break
                        lo2 = INF
                        if k < 99:
                            lo2 = forced_value(p, vc, rem, sure, nsure, masters, tseat, k, 0)
                        if kp < 99:
                            lo3 = forced_value(p, vc, rem, sure, nsure, masters, tseat, kp, 1)
                            if lo3 < lo2:
                                lo2 = lo3
                        if lo2 < beta < INF:
                            break
                    if bit == 0 and k > nsure and (lo2 >= beta or beta == INF):
                        if lo2 > lo[0]:
                            lo[0] = lo2
                            for k in range(4):
                                trel[k] = NO_REL
            if lo[0] >= beta:
                hi[0] = INF
                return
        else:
            hi[0] = p.taker_hp + rem - v - p.tgt[p.fixed + noud - s_oud]
            for k in range(4):
                hrel[k] = rel[k] if c == lead_camp else NO_REL
            tseat = lone_taker(p) if c == lead_camp and hi[0] > alpha else -1
            if tseat >= 0 and not p.hand[tseat][TRUMP]:
                # the defence on lead against a taker out of trumps: a line
                # of its safe leads, passing the lead between defenders
                for k in range(4):
                    tbest[k] = tc_msb(p.hand[tseat][k]) if p.hand[tseat][k] else -1
                kp = lead_chain(p, tseat, tbest, rel2, after, &ex_spent)
                if kp > 0:
                    cheapest_cards(p, tseat, kp, lost)
                    lo2 = run_bound(p, vc, rem, noud, c_oud, masters, tseat, kp, lost, after, ex_spent)
                    if lo2 < hi[0]:
                        hi[0] = lo2
                        for bit in range(4):
                            hrel[bit] = rel2[bit]
            elif tseat >= 0 and draw:
                lo2 = drawn_high(p, alpha, beta, rel2)
                if lo2 < hi[0]:
                    hi[0] = lo2
                    for bit in range(4):
                        hrel[bit] = rel2[bit]


# ---------------------------------------------------------------------------
# transposition table

# The key has a coarse part (the trumps and their owners, how many honours and
# low cards of each suit are left, each hand's number of low plain cards per
# suit, the leader and the flags) and a fine part: three bit planes giving the
# owner of every plain card still in play, in relative rank order, with which
# honours are left in their spare top bits (key_hid; read apart, since
# positions that differ only there share bounds shifted by HNEG/HPOS).  An entry also stores
# the mask of fine bits its result depends on (partition search, as in DDS):
# the honours always, and the low plain cards from the lowest rank that won a
# trick, settled a cash or a value choice in the subtree.  A position matches
# an entry when the coarse parts are equal and the owners agree under the mask:
# low cards below the mask can then be swapped between hands (each hand keeping
# its count per suit) without changing the value.

cdef struct Key:
    uint64_t k[6]       # k[0..2] fine owner planes, k[3..5] coarse
    uint64_t hmask      # fine bits of the honours
    int off[5]          # where each plain suit starts in the fine planes


cdef inline void make_key(Pos* p, Key* key) noexcept nogil:
    """The key of a trick start (no card on the table: ``alive`` is the hands').
    Seats past ``np`` hold nothing (``Core.load`` clears the position), so the
    owner planes need no loop over the seats; make keeps the low-card counts."""
    cdef int s, off = 0, cnt
    cdef uint64_t pl0 = 0, pl1 = 0, pl2 = 0, shape = 0, lo0 = 0, lo1 = 0, lo2 = 0
    cdef uint64_t a, b0, b1, b2, hm = 0, hid = 0
    cdef uint32_t (*h)[NSUITS]
    h = p.hand
    for s in range(NSUITS):
        a = p.alive[s]
        b0 = h[1][s] | h[3][s]
        b1 = h[2][s] | h[3][s]
        b2 = h[4][s]
        cnt = tc_popcount(a)
        if s < TRUMP:
            key.off[s] = off
            lo0 |= tc_pext(b0, a) << off
            lo1 |= tc_pext(b1, a) << off
            lo2 |= tc_pext(b2, a) << off
            hm |= ((1ULL << tc_popcount(a >> 10)) - 1) << (off + tc_popcount(a & 0x3FF))
            off += cnt
            # the number of honours left in the coarse key, which ones
            # above the fine planes (key_hid)
            shape |= (<uint64_t>tc_popcount(a >> 10) | (<uint64_t>tc_popcount(a & 0x3FF) << 4)) << (8 * s)
            hid |= ((a >> 10) & 15) << (4 * s)
        else:
            pl0 = tc_pext(b0, a)
            pl1 = tc_pext(b1, a)
            pl2 = tc_pext(b2, a)
            shape |= ((a & 1) | (((a >> 20) & 1) << 1) | (<uint64_t>tc_popcount(a & 0xFFFFE) << 2)) << 32
    key.off[4] = off
    key.hmask = hm
    key.k[0] = lo0 | ((hid & 0xFF) << 56)
    key.k[1] = lo1 | ((hid >> 8) << 56)
    key.k[2] = lo2
    key.k[3] = pl0 | (pl1 << 21) | (pl2 << 42)
    cdef uint64_t extra = p.leader | ((p.excuse_owner if p.excuse_owner >= 0 else NO_EXCUSE) << 3)
    extra |= <uint64_t>p.fixed << 6
    if p.excuse_owner >= 0:
        extra |= <uint64_t>(p.won[0] | (p.won[1] << 1)) << 8
    extra |= <uint64_t>p.camp_mask << 10
    extra |= <uint64_t>p.np << 15
    key.k[4] = shape | (extra << 39)
    key.k[5] = p.lows


cdef inline void rel_union(int* rel, int* other) noexcept nogil:
    """A result resting on both: per suit, the lower relevance rank."""
    cdef int s
    for s in range(4):
        if other[s] < rel[s]:
            rel[s] = other[s]


cdef inline uint64_t rel_mask(Pos* p, Key* key, int* rel) noexcept nogil:
    """Fine-key mask of the plain cards at or above each suit's relevance rank."""
    cdef int s
    cdef uint64_t m = 0
    cdef uint32_t a
    for s in range(4):
        a = p.alive[s]
        m |= tc_pext(a & ~((1u << rel[s]) - 1), a) << key.off[s]
    return m


cdef inline uint64_t store_mask(Search* S, Key* key, int* rel) noexcept nogil:
    """The mask a result resting on ``rel`` is stored under: :func:`rel_mask`
    with partition search, else every plain card's owner."""
    return rel_mask(&S.p, key, rel) if S.use_partition else (1ULL << key.off[4]) - 1


cdef inline void mask_rel(Pos* p, Key* key, uint64_t mask, int* rel) noexcept nogil:
    """Inverse of :func:`rel_mask` in the current position."""
    cdef int s, t
    cdef uint64_t seg
    for s in range(4):
        seg = (mask >> key.off[s]) & ((1ULL << (key.off[s + 1] - key.off[s])) - 1)
        t = NO_REL
        if seg:
            t = tc_ctz(tc_pdep(seg & (~seg + 1), p.alive[s]))
            if t > NO_REL:
                t = NO_REL
        rel[s] = t


cdef inline uint64_t key_hash(Key* key, uint64_t hm) noexcept nogil:
    """Hash of the coarse key and the owners of the fine bits in ``hm``."""
    cdef uint64_t* k = key.k
    cdef uint64_t h = (k[0] & hm) * 0x9E3779B97F4A7C15ULL
    h ^= ((k[1] & hm) + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL
    h ^= h >> 29
    h ^= ((k[2] & hm) ^ k[3]) * 0x165667B19E3779F9ULL
    h ^= (k[4] + (h >> 31)) * 0xD6E8FEB86659FD93ULL
    h ^= h >> 32
    h ^= (k[5] + (h >> 17)) * 0x9E3779B97F4A7C15ULL
    h ^= h >> 29
    return h


cdef inline uint32_t tt_hash(Search* S, Key* key, uint32_t* tag) noexcept nogil:
    """Where a key lives: the top 24 bits of the hash of its coarse part and
    honours under partition search, of the whole key without (:func:`tt_at`
    maps them onto the buckets in use); ``tag`` gets the low 24 bits, shifted
    to the meta word's top, never 0."""
    cdef uint64_t h = key_hash(key, key.hmask if S.use_partition else ~0ULL)
    if S.defence_moves:
        h ^= 0x9E3779B97F4A7C15ULL  # a one-sided search's entries: apart (its tag differs)
    tag[0] = ((<uint32_t>h & 0xFFFFFF) | 1) << 8
    return <uint32_t>(h >> 40)


cdef inline Bucket* tt_at(Search* S, uint32_t hx) noexcept nogil:
    """The bucket of hash ``hx`` (:func:`tt_hash`) in the table as it is now:
    a multiply maps 24 bits onto any count, and doubling the count sends
    bucket b's entries to buckets 2b and 2b + 1 (:func:`tt_grow`)."""
    return &S.table[(<uint64_t>hx * S.nbuckets) >> 24]


cdef void tt_grow(Search* S) noexcept nogil:
    """Double the buckets in use, in place: from the last bucket down, each
    one's entries go to buckets 2b and 2b + 1, which lie above it (but for
    bucket 0, whose entries stay or move to bucket 1) and whose own entries
    have already moved.  The table starts small and grows as a search fills
    it: a short search then touches a few MiB instead of the whole
    allocation (on a fresh table each first touch of a page is a fault; a
    large table's probes miss the caches)."""
    cdef Bucket* src
    cdef Bucket* d
    cdef Entry* e
    cdef uint64_t b, nb = S.nbuckets * 2
    cdef uint32_t hx
    cdef int i, j, k
    cdef int n[2]
    b = S.nbuckets
    while b > 0:
        b -= 1
        src = &S.table[b]
        memset(&S.table[2 * b + (b == 0)], 0, (2 - (b == 0)) * sizeof(Bucket))
        n[0] = 0
        n[1] = 0
        for i in range(WAYS):
            if src.meta[i] == 0:
                continue
            e = &src.e[i]
            hx = e.hx[0] | (<uint32_t>e.hx[1] << 8) | (<uint32_t>e.hx[2] << 16)
            j = <int>(((<uint64_t>hx * nb) >> 24) - 2 * b)
            d = &S.table[2 * b + j]
            k = n[j]
            n[j] += 1
            if d != src or k != i:
                d.meta[k] = src.meta[i]
                memcpy(&d.e[k], e, sizeof(Entry))
        if b == 0:
            for i in range(n[0], WAYS):
                src.meta[i] = 0
    S.nbuckets = nb


cdef inline uint32_t key_hid(uint64_t* k) noexcept nogil:
    """Which honours are left (4 bits a plain suit), kept in the fine
    planes' top bits, which no mask covers."""
    return <uint32_t>(k[0] >> 56) | (<uint32_t>(k[1] >> 56) << 8)


cdef inline bint coarse_eq(Entry* e, Key* key) noexcept nogil:
    return e.k[3] == key.k[3] and e.k[4] == key.k[4] and e.k[5] == key.k[5]


cdef inline uint64_t fine_diff(Entry* e, Key* key) noexcept nogil:
    return (e.k[0] ^ key.k[0]) | (e.k[1] ^ key.k[1]) | (e.k[2] ^ key.k[2])


cdef inline Entry* tt_find(Bucket* b, uint32_t tag, Key* key, int* lo, int* hi,
                          uint64_t* mask, int* shifted, int similar, int cut_lo, int cut_hi) noexcept nogil:
    """Combine the entries of ``key``'s bucket (:func:`tt_hash`, :func:`tt_at`) that
    match: the tightest bounds, ``mask[0]`` and ``mask[1]`` the masks of the
    entries that give the low and the high bound (each bound rests on its
    own entry alone); returns the entry with the most work (for its move).
    The scan stops at the first entry that brings the low bound to
    ``cut_lo``, the high bound to ``cut_hi``, or the two together, and
    returns it: a cut then rests on the first entry that proves it alone
    (session 75: exact with 14 left 370.3 M -> 340.0 M nodes; resting on
    the union of the masks of every entry that had tightened a bound on the
    way had made the cuts' results, and so their parents', needlessly
    specific).  An entry for other honours of the same number
    and owners (HNEG) gives its bounds shifted by what the taker could gain
    or lose on the honours that differ (payoff-similarity, Furtak and Buro
    2011; not unless ``similar``); ``shifted`` is set when such an entry
    tightened a bound."""
    cdef Entry* e
    cdef Entry* found = NULL
    cdef int i, j, s, fw = -1, elo, ehi, neg, pos
    cdef uint32_t hits = 0, kid = key_hid(key.k), eid, diff
    cdef uint64_t lmask = 0, hmask = 0
    lo[0] = -INF
    hi[0] = INF
    shifted[0] = 0
    # the tag line first, in a loop the compiler vectorises
    for i in range(WAYS):
        hits |= (<uint32_t>((b.meta[i] & 0xFFFFFF00u) == tag)) << i
    while hits:
        i = tc_ctz(hits)
        hits &= hits - 1
        e = &b.e[i]
        # the owner planes first: once the tag matches, the coarse key does
        # but for a collision of the hash (its tag's 24 bits and the
        # bucket's); as two tests, since one test of both ran 0.6 % more
        # instructions (session 73)
        if (fine_diff(e, key) & e.mask) != 0:
            continue
        if not coarse_eq(e, key):
            continue
        elo = e.lo
        ehi = e.hi
        eid = key_hid(e.k)
        if eid != kid:
            if not similar:
                continue
            neg = 0
            pos = 0
            # the suits whose honours differ (HNEG and HPOS are 0 for the others)
            diff = eid ^ kid
            while diff:
                s = tc_ctz(diff) >> 2
                diff &= ~(15u << (4 * s))
                j = (((eid >> (4 * s)) & 15) << 4) | ((kid >> (4 * s)) & 15)
                neg += HNEG[j]
                pos += HPOS[j]
            if elo > -INF:
                elo += neg
            if ehi < INF:
                ehi += pos
        if elo > lo[0] or ehi < hi[0]:
            if eid != kid:
                shifted[0] = 1
            if elo > lo[0]:
                lo[0] = elo
                lmask = e.mask
            if ehi < hi[0]:
                hi[0] = ehi
                hmask = e.mask
            if lo[0] >= cut_lo or hi[0] <= cut_hi or lo[0] == hi[0]:
                found = e
                break
        if <int>(b.meta[i] & 0xFF) > fw:
            fw = b.meta[i] & 0xFF
            found = e
    mask[0] = lmask
    mask[1] = hmask
    return found


cdef inline void tt_store(Search* S, uint32_t hx, uint32_t tag, Key* key, uint64_t mask, int lo,
                          int hi, int move, int work) noexcept nogil:
    """Store a result valid for every position matching ``key`` under ``mask``
    in its bucket (:func:`tt_hash`, :func:`tt_at`).

    An entry for the same class takes the tighter bounds; an entry that this
    one makes redundant (it holds for fewer positions and says no more) is
    overwritten, and a new result that says nothing new is dropped.
    """
    cdef Bucket* b = tt_at(S, hx)
    cdef Entry* e
    cdef int i, slot = -1, w = 1000
    cdef uint32_t kid = key_hid(key.k), hits = 0, empty = 0
    # the tag line first, in a loop the compiler vectorises (as in tt_find)
    for i in range(WAYS):
        hits |= (<uint32_t>((b.meta[i] & 0xFFFFFF00u) == tag)) << i
    while hits:
        i = tc_ctz(hits)
        hits &= hits - 1
        e = &b.e[i]
        if (fine_diff(e, key) & (e.mask & mask)) != 0 or not coarse_eq(e, key):
            continue
        if key_hid(e.k) != kid:
            continue        # other honours: an entry of its own
        if e.mask == mask:
            if lo > e.lo:
                e.lo = lo
            if hi < e.hi:
                e.hi = hi
            if move != 255:
                e.move = move
            if work > <int>(b.meta[i] & 0xFF):
                b.meta[i] = tag | work
            return
        if (e.mask & mask) == e.mask and e.lo >= lo and e.hi <= hi:
            return          # a more general entry already says as much
        if (e.mask & mask) == mask and e.lo <= lo and e.hi >= hi:
            slot = i        # a more specific entry that says no more
            break
    if slot < 0:
        # the first empty slot, likewise
        for i in range(WAYS):
            empty |= (<uint32_t>(b.meta[i] == 0)) << i
        if empty:
            slot = tc_ctz(empty)
        else:
            # the entry with the least work
            for i in range(WAYS):
                if <int>(b.meta[i] & 0xFF) < w:
                    w = b.meta[i] & 0xFF
                    slot = i
    S.tt_stores += 1
    if b.meta[slot] == 0:
        S.tt_fill += 1
    b.meta[slot] = tag | work
    e = &b.e[slot]
    for i in range(6):
        e.k[i] = key.k[i]
    e.mask = mask
    e.lo = lo
    e.hi = hi
    e.move = move
    e.hx[0] = hx & 0xFF
    e.hx[1] = (hx >> 8) & 0xFF
    e.hx[2] = hx >> 16


cdef inline int rel_move(Pos* p, int card) noexcept nogil:
    """Card as (suit, rank among the cards alive in that suit) for the table."""
    cdef int s, bit
    cdef uint32_t a
    if card == EXCUSE:
        return 254
    if card >= 56:
        s = TRUMP
        bit = card - 56
    else:
        s = card // 14
        bit = card % 14
    a = p.alive[s] | (1u << bit)
    return s * 32 + tc_popcount(a & ((1 << bit) - 1))


cdef inline int abs_move(Pos* p, int rel) noexcept nogil:
    """Inverse of :func:`rel_move` in the current position (-1 if no such card)."""
    cdef int s
    cdef uint32_t a
    if rel == 254:
        return EXCUSE
    if rel == 255:
        return -1
    s = rel // 32
    a = <uint32_t>tc_pdep(1ULL << (rel % 32), p.alive[s])
    if not a:
        return -1
    return card_of(s, tc_ctz(a))


# ---------------------------------------------------------------------------
# alpha-beta

cdef int terminal_value(Pos* p) noexcept nogil:
    return p.taker_hp - p.tgt[p.fixed]


cdef inline int parity(Pos* p) noexcept nogil:
    """At a trick start, the parity of the final value, or -1 if unknown.

    With four players every card is worth an odd number of half-points, so
    every trick brings its winners an even number: four odd cards, or the
    Excuse's exchange (its side keeps 8, the winners get 1 and three cards).
    The one exception is the defence's Excuse played to the last trick and
    lost there: it goes to the taker alone (9).  So while the defence does
    not hold the Excuse the final value has the parity of the present one."""
    if not p.even or (p.excuse_owner >= 0 and not p.camp[p.excuse_owner]):
        return -1
    return (p.taker_hp - p.tgt[0]) & 1


cdef inline int split_choice(Search* S, int move, int* runlo, int* runhi, int rank, int alpha,
                             int beta, int* crel) noexcept nogil:
    """A value choice whose run straddles ``rank`` in a node where every card
    was refuted: search the choice of the other part of the run too, so that
    the result need not rest on the ranks below ``rank``.

    The run's cards at or above ``rank`` keep their owner in every position the
    result serves, so they still touch and the same choice holds among them;
    those below are low cards the owner may hold elsewhere.  If the cheapest
    card was given (a trick to the other camp), it stands for the part below
    and the cheapest card at or above ``rank`` is searched for the part above;
    if the most valuable (a trick to its own camp), it stands for the part
    above and the best card below is searched.  ``runlo``/``runhi`` shrink to
    the part ``move`` still stands for; ``crel`` gets what the new search rests
    on, plus ``runlo``'s old value where the part below would straddle again.
    Returns the searched value (a value no player prefers when the other part
    holds no card, so that nothing is searched).
    """
    cdef Pos* p = &S.p
    cdef int s = move // 14, seat = seat_at(p, p.ntrick), v, k, low = -1
    cdef uint32_t cards
    if move % 14 == runlo[0]:
        cards = p.hand[seat][s] & ((2u << (runhi[0] & 0xFF)) - 1) & ~((1u << rank) - 1)
        runhi[0] = (rank - 1) | CHOICE
    else:
        cards = p.hand[seat][s] & ((1u << rank) - 1) & ~((1u << runlo[0]) - 1)
        low = runlo[0]
        runlo[0] = rank
    for k in range(4):
        crel[k] = NO_REL
    if not cards:
        return -INF if p.camp[seat] else INF
    v = child(S, card_of(s, tc_ctz(cards) if low < 0 else tc_msb(cards)), alpha, beta, crel)
    if low >= 0 and low < crel[s] < rank:
        # the part below is searched once and no longer tracked
        crel[s] = low
    return v


cdef inline int child(Search* S, int card, int alpha, int beta, int* crel) noexcept nogil:
    """Value of playing ``card``; ``crel`` gets the ranks it rests on, the
    winning card's included when the card ends a trick won in its suit."""
    cdef Pos* p = &S.p
    cdef Undo* u
    cdef int v
    make(p, card)
    v = ab(S, alpha, beta, crel)
    u = &p.undo[p.ply - 1]
    if u.completed and u.win_card < 56 and u.win_card % 14 < crel[u.win_card // 14]:
        # the trick went to the highest card of its suit: that rank counts
        crel[u.win_card // 14] = u.win_card % 14
    unmake(p)
    return v


cdef inline int store_cut(Search* S, uint32_t hx, uint32_t tag, Key* key, int* rel, int* brel,
                          bint narrowed, int* erel, int v, bint low) noexcept nogil:
    """A cut by a bound asked after the table (the drawing, the abstract
    game): ``v`` rests on the ranks ``brel`` (NULL: no plain rank), and on
    the table's entry's where that narrowed the window; it is stored in the
    table as a low (``low``) or high bound, unlike the sure bounds' cuts,
    since these bounds cost about as much as a trick start searched."""
    cdef int s
    for s in range(4):
        rel[s] = brel[s] if brel != NULL else NO_REL
    if narrowed:
        rel_union(rel, erel)
    if S.use_table:
        if low:
            tt_store(S, hx, tag, key, store_mask(S, key, rel), v - S.p.taker_hp, INF, 255, 0)
        else:
            tt_store(S, hx, tag, key, store_mask(S, key, rel), -INF, v - S.p.taker_hp, 255, 0)
    return v


cdef inline bint past(Search* S) noexcept nogil:
    """Whether the request's deadline or the solver's stop has come."""
    cdef double now = tc_now()
    return (S.deadline > 0 and now > S.deadline) or (S.stop > 0 and now > S.stop)


cdef int ab(Search* S, int alpha, int beta, int* rel) noexcept nogil:
    """Fail-soft alpha-beta.  ``rel[s]`` gets the lowest rank bit of plain suit
    ``s`` the returned bound depends on (partition search): swapping lower
    cards of that suit between hands, each keeping its count, keeps it valid."""
    cdef Pos* p = &S.p
    cdef int moves[MAXMOVES]
    cdef int scores[MAXMOVES]
    cdef int runlo[MAXMOVES]
    cdef int runhi[MAXMOVES]
    cdef int crel[4]
    cdef int vrel[4]
    cdef int erel[4]
    cdef int hrel[4]
    cdef int trel[4]
    cdef int srel[MAXMOVES]
    cdef int mval[MAXMOVES]     # a searched card's fail-soft bound (INF + 1: none)
    cdef int hb, lb, d
    cdef int n, i, k, s, v, best, bestmove = -1, tt_move = -1, maximize, lo, hi, changed, mine
    cdef int a0 = alpha, b0 = beta, seat, cut = 0, narrowed = 0, par = -1
    cdef Key key
    cdef Entry* e = NULL
    cdef uint32_t hx = 0, tag = 0
    cdef uint64_t emask[2]
    cdef int64_t nodes0, saved
    for s in range(4):
        rel[s] = NO_REL
    if S.node_limit > 0 and S.nodes >= S.node_limit:  # (node_limit nodes searched: no more)
        S.aborted = 1
        return 0
    S.nodes += 1
    if S.nodes >= S.sub_limit and not S.aborted:
        S.aborted = 2
    if (S.nodes & 0x3FFF) == 0 and (tc_interrupted or ((S.deadline > 0 or S.stop > 0) and past(S))):
        S.aborted = 1
    if S.aborted:
        return 0
    if p.ntrick > 0:
        seat = seat_at(p, p.ntrick)
        if p.excuse_owner != seat:
            k = legal_mask(p, seat, &s)
            if k and not (k & (k - 1)):
                # one legal card (29 % of the nodes searched, exact 14 left):
                # the loop below would search it alone, and its value and
                # ranks are this node's (capped at NO_REL unless it cuts, as
                # rel_union does there); so no moves are generated
                v = child(S, card_of(s, tc_ctz(k)), alpha, beta, rel)
                if v < beta if p.camp[seat] else v > alpha:
                    for s in range(4):
                        if rel[s] > NO_REL:
                            rel[s] = NO_REL
                return v
    if p.ntrick == 0:
        if p.tricks_left == 0:
            return terminal_value(p)
        if S.use_table:
            if 2 * S.tt_fill > S.nbuckets * WAYS and 2 * S.nbuckets <= S.max_buckets:
                # half the slots filled: double the table (not in tt_store,
                # whose callers up the recursion are between probe and store)
                tt_grow(S)
            make_key(p, &key)
            hx = tt_hash(S, &key, &tag)
            # both tag lines requested at once, before the lookup reads them
            tc_prefetch(tt_at(S, hx))
        par = parity(p)
        if S.use_table:
            # the table before the sure bounds: near the median it cuts 43 %
            # of the trick starts, which then skip the bounds (session 31)
            S.tt_probes += 1
            e = tt_find(tt_at(S, hx), tag, &key, &lo, &hi, emask, &k, S.use_similar,
                        beta - p.taker_hp, alpha - p.taker_hp)
            S.tt_shifted += k
            if e != NULL:
                S.tt_hits += 1
                lo += p.taker_hp
                hi += p.taker_hp
                # a bound rests on the entry that gives it (emask)
                if lo >= beta:
                    mask_rel(p, &key, emask[0], rel)
                    return lo
                if hi <= alpha:
                    mask_rel(p, &key, emask[1], rel)
                    return hi
                if lo == hi:
                    mask_rel(p, &key, emask[0] | emask[1], rel)
                    return lo
                if lo > alpha:
                    alpha = lo
                    narrowed = 1
                else:
                    emask[0] = 0
                if hi < beta:
                    beta = hi
                    narrowed = 1
                else:
                    emask[1] = 0
                if narrowed:
                    mask_rel(p, &key, emask[0] | emask[1], erel)
                tt_move = abs_move(p, e.move)
        if S.use_bounds:
            sure_bounds(p, &lo, &hi, crel, trel, hrel, alpha, beta)
            if par >= 0:
                # whole points: a bound a half-point off the value's parity
                # moves to it (15 full deals -2.4 % nodes)
                lo += (lo - par) & 1
                hi -= (hi - par) & 1
            if lo >= beta or hi <= alpha or lo == hi:
                # the low bound rests on the leader's plan's ranks when he
                # is of the taker's camp, and on the taker's later cash's
                # or plain wins';
                # the high bound on those of the defence's plan
                if lo >= beta or lo == hi:
                    if p.camp[p.leader] == 1:
                        for s in range(4):
                            rel[s] = crel[s]
                    rel_union(rel, trel)
                if lo < beta:
                    rel_union(rel, hrel)
                if narrowed:
                    # cut against the window the table's entry narrowed
                    rel_union(rel, erel)
                return lo if lo >= beta or lo == hi else hi
        # where neither the table nor the sure bounds cut (lo < beta and
        # hi > alpha), the costlier bounds (cuts stored)
        if S.use_bounds and S.use_abstract:
            # the taker's tricks in the abstract game
            v = abs_low(p, beta)
            if par >= 0 and v > -INF:
                v += (v - par) & 1
            if v >= beta:
                return store_cut(S, hx, tag, &key, rel, NULL, narrowed, erel, v, 1)
        if S.use_bounds:
            # the defence's drawing of the taker's trumps
            v = drawn_high(p, alpha, beta, crel)
            if v <= alpha:
                return store_cut(S, hx, tag, &key, rel, crel, narrowed, erel, v, 0)
    nodes0 = S.nodes
    seat = seat_at(p, p.ntrick)
    maximize = p.camp[seat]
    n = gen_moves(S, moves, scores, tt_move, runlo, runhi, vrel)
    best = -INF if maximize else INF
    if maximize and S.use_scan and p.tricks_left >= S.deal_tricks - 1 and n >= 2:
        # early-deal scan: near the start of a deal the card the ordering
        # tries first fixes which proof is searched, and another card's can
        # be far smaller (deal 39: over 200 M nodes, against 0.9 M with the
        # scan); so first give every card a small budget and try first one
        # that proves a cut within it (the table keeps what the scan proved).
        # The budget finds the cuts the bounds prove within a trick or two;
        # 5,000 nodes (sessions 7-28) cost the makes near the median more
        # than they found (session 29: deal 8 0.90 M -> 0.07 M nodes)
        for i in range(n):
            saved = S.sub_limit
            mine = S.nodes + SCAN_NODES < saved
            if mine:
                S.sub_limit = S.nodes + SCAN_NODES
            v = child(S, moves[i], alpha, beta, crel)
            S.sub_limit = saved
            if mine and S.aborted == 2:
                S.aborted = 0
                continue
            if S.aborted:
                return 0
            if v >= beta:
                k = moves[0]; moves[0] = moves[i]; moves[i] = k
                k = runlo[0]; runlo[0] = runlo[i]; runlo[i] = k
                k = runhi[0]; runhi[0] = runhi[i]; runhi[i] = k
                break
    for i in range(n):
        s = moves[i] // 14
        srel[i] = -1
        mval[i] = INF + 1
        if moves[i] < 56 and S.use_merge:
            # dynamic merging: the result of an earlier card k of this suit
            # rests on no rank below srel[k], and card k lies below it; this
            # card, also below, differs from card k only in ranks the result
            # does not depend on (both are low cards, worth the same), so its
            # value is card k's, already in best and rel (partition search's
            # argument, applied to the moves of one node)
            for k in range(i):
                if moves[k] // 14 == s and moves[i] % 14 < srel[k]:
                    break
            else:
                k = -1
            if k >= 0:
                continue
        if moves[i] < 56 and moves[i] % 14 >= 10 and S.use_similar and S.use_merge:
            # an honour touching one of this hand's honours already refuted
            # here (no live card between, those on the table included): the
            # two lines trade the two cards, one into this trick and the
            # other later, and are otherwise alike, so their values differ
            # by at most the cards' difference d (the table's bounds shared
            # across honours, inside a trick; session 37)
            for k in range(i):
                if mval[k] > INF or moves[k] // 14 != s or moves[k] % 14 < 10:
                    continue
                hb = max(moves[i] % 14, moves[k] % 14)
                lb = min(moves[i] % 14, moves[k] % 14)
                if p.alive[s] & ~p.hand[seat][s] & ((1u << hb) - (2u << lb)):
                    continue
                d = VAL[s][hb] - VAL[s][lb]
                if maximize and mval[k] + d <= alpha:
                    v = mval[k] + d
                    break
                if not maximize and mval[k] - d >= beta:
                    v = mval[k] - d
                    break
            else:
                k = -1
            if k >= 0:
                # the bound rests on what card k's did (already in rel)
                S.run_shifts += 1
                if (maximize and v > best) or (not maximize and v < best):
                    best = v
                    bestmove = moves[i]
                continue
        v = child(S, moves[i], alpha, beta, crel)
        if S.aborted:
            return 0
        if (maximize and v <= alpha) or (not maximize and v >= beta):
            mval[i] = v
        if moves[i] < 56 and moves[i] % 14 < crel[s] and moves[i] % 14 < NO_REL:
            # low cards only, capped at NO_REL: a result resting on an
            # honour's rank (a cash in the sure bounds) still depends on
            # which honours are played, each worth more than a low card
            srel[i] = crel[s] if crel[s] < NO_REL else NO_REL
        if maximize:
            if v > best:
                best = v
                bestmove = moves[i]
                if v > alpha:
                    alpha = v
                    cut = v >= beta
        else:
            if v < best:
                best = v
                bestmove = moves[i]
                if v < beta:
                    beta = v
                    cut = v <= alpha
        if cut:
            # the bound rests on this card alone
            for s in range(4):
                rel[s] = crel[s]
            break
        rel_union(rel, crel)
    if not cut:
        # every card was refuted: the cards merged into the ones searched and
        # the value choices count too, so no run may straddle a suit's rank
        rel_union(rel, vrel)
        changed = 1
        while changed:
            changed = 0
            for i in range(n):
                s = moves[i] // 14
                if runlo[i] < 0 or not runlo[i] < rel[s] <= (runhi[i] & 0xFF):
                    continue
                changed = 1
                if not runhi[i] & CHOICE or not (S.use_table and S.use_partition):
                    # (the split's search only pays where entries are shared)
                    rel[s] = runlo[i]
                    continue
                v = split_choice(S, moves[i], &runlo[i], &runhi[i], rel[s], alpha, beta, crel)
                if S.aborted:
                    return 0
                if (maximize and v > best) or (not maximize and v < best):
                    best = v
                rel_union(rel, crel)
    if narrowed:
        rel_union(rel, erel)
    if par >= 0 and best > -INF and best < INF:
        # a fail-soft bound moves to the value's parity too
        if best <= a0:
            best -= (best - par) & 1
        elif best >= b0:
            best += (best - par) & 1
    if p.ntrick == 0 and S.use_table:
        if best <= a0:
            lo = -INF
            hi = best - p.taker_hp
        elif best >= b0:
            lo = best - p.taker_hp
            hi = INF
        else:
            lo = best - p.taker_hp
            hi = lo
        v = S.nodes - nodes0
        i = 0
        while v > 1:
            v >>= 1
            i += 1
        tt_store(S, hx, tag, &key, store_mask(S, &key, rel),
                 lo, hi, rel_move(p, bestmove) if bestmove >= 0 else 255, i)
    return best


# ---------------------------------------------------------------------------
# Python surface

DEF FIRST_TABLE = 8 << 20   # bytes: the least first size of the table (first_buckets: 8-16 MiB; tt_grow)

#: the largest table: 2**24 buckets, all a 24-bit hash can address (tt_at)
MAX_TABLE_BYTES = (1 << 24) * sizeof(Bucket)


cdef extern from *:
    """
    #ifndef TAROT_BUILD
    #define TAROT_BUILD "unknown"
    #endif
    #ifndef TAROT_SOURCE
    #define TAROT_SOURCE ""
    #endif
    /* Whether this CPU (and its OS, for the AVX registers) runs code compiled
       for x86-64-v3: AVX2, BMI1/2, FMA (and LZCNT, MOVBE, F16C, which every
       CPU with those has).  A runtime test: it works whatever this file was
       compiled for. */
    static int tc_cpu_has_x86_64_v3(void) {
    #if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2")
            && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")
            && __builtin_cpu_supports("fma") && __builtin_cpu_supports("popcnt");
    #else
        return 0;
    #endif
    }
    """
    const char* TAROT_BUILD
    const char* TAROT_SOURCE
    int tc_cpu_has_x86_64_v3()

#: the instruction set this build targets: ``portable`` (any CPU of its
#: architecture), ``x86-64-v3`` (the variant ``tarot_solver`` loads instead
#: where the CPU has it), an ``-march`` named at build time (``native``...),
#: or ``debug``
BUILD = TAROT_BUILD.decode()
#: a digest of the source this build was compiled from: a variant is used only
#: with the portable build of the same source
SOURCE = TAROT_SOURCE.decode()


def cpu_has_x86_64_v3() -> bool:
    """Whether this CPU runs the ``x86-64-v3`` build."""
    return bool(tc_cpu_has_x86_64_v3())


cdef uint64_t first_buckets(uint64_t most) noexcept nogil:
    """The table's first bucket count: ``most`` halved while at least twice
    FIRST_TABLE (so 8-16 MiB, or the whole table where it is smaller), so
    that doubling reaches at most ``most``."""
    while most * sizeof(Bucket) >= 2 * FIRST_TABLE:
        most >>= 1
    return most


cdef class Core:
    """One search engine: a position, a transposition table and counters.

    Not thread-safe: use one ``Core`` per thread or process.  Searches release
    the GIL.
    """

    cdef Search S
    cdef size_t table_bytes
    cdef void* raw          # the allocation (tc_alloc), the table aligned in it
    cdef size_t raw_len
    cdef ForcedEntry* fcache
    cdef SureEntry* scache
    cdef AbsEntry* acache

    def __cinit__(self, size_t table_bytes=256 * 1024 * 1024):
        cdef uint64_t nb = table_bytes // sizeof(Bucket)
        if nb < 1 or nb > (1ULL << 24):
            raise ValueError(f"a table of {table_bytes} bytes: it must hold between one bucket"
                             f" and 2**24 buckets ({MAX_TABLE_BYTES} bytes)")
        memset(&self.S, 0, sizeof(Search))
        self.S.table = <Bucket*>tc_alloc(nb * sizeof(Bucket), &self.raw, &self.raw_len)
        if self.S.table == NULL:
            raise MemoryError(f"cannot allocate a {table_bytes}-byte table")
        self.fcache = <ForcedEntry*>calloc(FCACHE, sizeof(ForcedEntry))
        if self.fcache == NULL:
            raise MemoryError("cannot allocate the forced-count cache")
        self.scache = <SureEntry*>calloc(FCACHE, sizeof(SureEntry))
        if self.scache == NULL:
            raise MemoryError("cannot allocate the sure-trumps cache")
        self.acache = <AbsEntry*>calloc(ACACHE, sizeof(AbsEntry))
        if self.acache == NULL:
            raise MemoryError("cannot allocate the abstract game's cache")
        self.S.p.fcache = self.fcache
        self.S.p.scache = self.scache
        self.S.p.acache = self.acache
        self.S.max_buckets = nb
        self.table_bytes = nb * sizeof(Bucket)
        self.S.nbuckets = first_buckets(nb)
        self.S.use_table = 1
        self.S.use_bounds = 1
        self.S.use_merge = 1
        self.S.use_partition = 1
        self.S.use_scan = 1
        self.S.defence_moves = 0
        self.S.use_abstract = 1
        self.S.use_similar = 1
        self.S.deal_tricks = 1 << 30
        self.S.sub_limit = 1LL << 62

    def __dealloc__(self):
        tc_free(self.raw, self.raw_len)
        free(self.fcache)
        free(self.scache)
        free(self.acache)

    @property
    def table_bytes(self):
        """Bytes the table may grow to (whole buckets of 32 entries)."""
        return self.table_bytes

    @property
    def table_used_bytes(self):
        """Bytes of the table in use now: it starts at a few MiB and doubles
        whenever half its slots are filled, up to ``table_bytes``."""
        return self.S.nbuckets * sizeof(Bucket)

    def clear_table(self):
        """Empty the table and shrink it back to its first size."""
        memset(self.S.table, 0, self.S.nbuckets * sizeof(Bucket))
        self.S.nbuckets = first_buckets(self.S.max_buckets)
        self.S.tt_fill = 0

    def set_options(self, table=None, bounds=None, merge=None, partition=None, scan=None,
                    abstract=None, similar=None):
        """Switch techniques off for tests and ablations (all on by default)."""
        if similar is not None:
            self.S.use_similar = 1 if similar else 0
        if abstract is not None:
            self.S.use_abstract = 1 if abstract else 0
        if scan is not None:
            self.S.use_scan = 1 if scan else 0
        if partition is not None:
            self.S.use_partition = 1 if partition else 0
        if table is not None:
            self.S.use_table = 1 if table else 0
        if bounds is not None:
            self.S.use_bounds = 1 if bounds else 0
        if merge is not None:
            self.S.use_merge = 1 if merge else 0

    def set_position(self, hands, camps, int leader, trick, int taker_hp, int fixed_oudlers,
                     won_all, targets, int deal_tricks=0):
        """Load a position.

        hands: per seat, a set of cards as a Python int bitmask (bit c for card c);
        camps: per seat, True for the taker's camp; leader: seat that led the
        current trick; trick: cards of the current trick in order; taker_hp:
        half-points already won by the taker's camp; fixed_oudlers: oudlers
        already settled in the taker's camp; won_all: (defence, taker) flags,
        True where that camp has won every finished trick; targets: twice the
        target for 0..3 oudlers; deal_tricks: tricks in the whole deal (the
        early-deal scan covers its first two, and the defence's first lead is
        ordered by it; 0: unknown, neither).
        """
        cdef Pos* p = &self.S.p
        cdef int q, s, c, np = len(hands)
        if not 3 <= np <= MAXP:
            # (the move buffers hold MAXMOVES cards: a hand of 26 at most)
            raise ValueError(f"{np} hands: 3 to 5 players")
        if len(trick) >= np:
            raise ValueError("a trick in progress holds fewer cards than players")
        if len(camps) != np:
            raise ValueError(f"camps: {len(camps)} entries for {np} hands")
        if not 0 <= leader < np:
            raise ValueError(f"leader: seat {leader}, not one of 0..{np - 1}")
        if len(targets) != 4:
            raise ValueError(f"targets: one for each count of oudlers 0..3, not {len(targets)}")
        if not 0 <= taker_hp <= 182:
            raise ValueError(f"taker_hp: {taker_hp} half-points, not 0..182")
        seen = 0
        for q in range(np):
            m = int(hands[q])
            if m < 0 or m >> 78:
                raise ValueError(f"hands[{q}]: a card set of cards 0..77")
            if m & seen:
                raise ValueError(f"hands[{q}]: a card also in another hand")
            seen |= m
        for c in trick:
            if not 0 <= int(c) < 78 or (seen >> int(c)) & 1:
                raise ValueError(f"trick: card {c} is not a card, or is still in a hand")
            seen |= 1 << int(c)
        memset(p, 0, sizeof(Pos))
        p.fcache = self.fcache
        p.scache = self.scache
        p.acache = self.acache
        p.np = np
        p.excuse_owner = -1
        p.camp_mask = 0
        for q in range(np):
            m = int(hands[q])
            for s in range(4):
                p.hand[q][s] = (m >> (14 * s)) & 0x3FFF
            p.hand[q][TRUMP] = (m >> 56) & 0x1FFFFF
            if (m >> EXCUSE) & 1:
                p.excuse_owner = q
            p.camp[q] = 1 if camps[q] else 0
            p.camp_mask |= p.camp[q] << q
        p.leader = leader
        p.ntrick = len(trick)
        for q in range(p.ntrick):
            p.trick[q] = int(trick[q])
            c = p.trick[q]
            if c != EXCUSE:
                if c >= 56:
                    p.alive[TRUMP] |= 1u << (c - 56)
                else:
                    p.alive[c // 14] |= 1u << (c % 14)
        for q in range(np):
            for s in range(NSUITS):
                p.alive[s] |= p.hand[q][s]
            for c in range(56):
                if p.hand[q][c // 14] >> (c % 14) & 1:
                    p.lows += low_unit(p, q, c)
            value_counts(p, q, &p.vc[q])
        p.taker_hp = taker_hp
        p.fixed = fixed_oudlers
        p.won[0] = 1 if won_all[0] else 0
        p.won[1] = 1 if won_all[1] else 0
        for q in range(4):
            p.tgt[q] = targets[q]
        p.even = np == 4 and len({t & 1 for t in targets}) == 1
        counts = [sum(bin(p.hand[q][s]).count("1") for s in range(5)) + (1 if p.excuse_owner == q else 0)
                  for q in range(np)]
        # seats that already played to the current trick hold one card fewer
        for q in range(p.ntrick):
            counts[(leader + q) % np] += 1
        if len(set(counts)) != 1:
            raise ValueError(f"inconsistent hand sizes {counts}")
        p.tricks_left = counts[0]
        self.S.deal_tricks = deal_tricks if deal_tricks > 0 else 1 << 30
        p.ply = 0
        p.tled[0] = -1
        p.tbest[0] = -1
        for q in range(p.ntrick):
            trick_step(p, q, &p.tled[0], &p.tbest[0])
        if p.tricks_left * np >= MAXPLY:
            raise ValueError("too many tricks for the undo stack")

    @property
    def to_play(self):
        return (self.S.p.leader + self.S.p.ntrick) % self.S.p.np

    @property
    def taker_hp(self):
        return self.S.p.taker_hp

    @property
    def fixed_oudlers(self):
        return self.S.p.fixed

    @property
    def tricks_left(self):
        return self.S.p.tricks_left

    @property
    def ntrick(self):
        return self.S.p.ntrick

    def legal_moves(self):
        """Every legal card of the player on turn, in card order."""
        cdef int out[MAXMOVES]
        cdef int n = all_legal(&self.S.p, out)
        return [out[i] for i in range(n)]

    def candidates(self):
        """The cards the search tries for the player on turn, in its order:
        one per set of equivalent cards (for tests and inspection)."""
        cdef int moves[MAXMOVES]
        cdef int scores[MAXMOVES]
        cdef int runlo[MAXMOVES]
        cdef int runhi[MAXMOVES]
        cdef int vrel[4]
        cdef int n = gen_moves(&self.S, moves, scores, -1, runlo, runhi, vrel)
        return [moves[i] for i in range(n)]

    def play(self, int card):
        """Play a legal card (raises ValueError otherwise)."""
        if card not in self.legal_moves():
            raise ValueError(f"card {card} is not legal here")
        if self.S.p.ply >= MAXPLY - 1:
            raise ValueError("too many plays")
        make(&self.S.p, card)

    def undo(self):
        if self.S.p.ply == 0:
            raise ValueError("nothing to undo")
        unmake(&self.S.p)

    def value_if_over(self):
        """The final value when no card is left, else None."""
        if self.S.p.tricks_left == 0:
            return terminal_value(&self.S.p)
        return None

    def abstract_low(self, int beta):
        """At a trick start, the taker's camp's low bound from its tricks in
        the abstract game (``abs_bound``) where that reaches ``beta``, else
        -INF, as the search asks it (where the table has not cut); for
        tests."""
        if self.S.p.ntrick != 0 or self.S.p.tricks_left == 0:
            return -INF
        return abs_low(&self.S.p, beta)

    def bounds(self, bint sure=True):
        """Proven (low, high) bounds on the value without search: the sure-point
        bounds at a trick start, else (inside a trick, with the bounds switched
        off, or ``sure`` false) the static ones: nothing more is lost, at most
        everything is won."""
        cdef int lo, hi
        cdef int rel[4]
        cdef int rel2[4]
        cdef int rel3[4]
        if sure and self.S.p.ntrick == 0 and self.S.p.tricks_left > 0 and self.S.use_bounds:
            sure_bounds(&self.S.p, &lo, &hi, rel, rel2, rel3, -INF, INF, 0, 1)
        else:
            static_bounds(&self.S.p, &lo, &hi)
        return lo, hi

    def probe(self, int alpha, int beta, int64_t node_limit=0, double deadline=0.0, int defence_moves=0):
        """Fail-soft alpha-beta on (alpha, beta) from the current position.

        Returns (value, complete).  ``node_limit`` counts nodes since the last
        ``reset_counters``; ``deadline`` is a ``time.monotonic()``-like clock
        value (CLOCK_MONOTONIC), 0 for none.  With ``defence_moves`` k > 0 the
        defence plays only the first k cards its ordering tries at each node:
        a one-sided search, whose value at or below ``alpha`` bounds the true
        value from above (the defence has those cards at least), and whose value
        above says nothing; its results keep to entries of their own in the table.  In the main thread, Ctrl-C or
        SIGTERM stops the search within milliseconds; the signal is then raised
        again for Python's handler (KeyboardInterrupt for Ctrl-C; for SIGTERM,
        the process ends unless a handler is set), and KeyboardInterrupt if the
        handler returns.
        """
        cdef int v
        cdef int rel[4]
        cdef int ply0 = self.S.p.ply
        cdef int sig = 0
        cdef bint main = threading.current_thread() is threading.main_thread()
        if defence_moves < 0:
            raise ValueError(f"defence_moves must be 0 (all) or more, not {defence_moves}")
        self.S.aborted = 0
        self.S.sub_limit = 1LL << 62
        self.S.node_limit = node_limit
        self.S.deadline = deadline
        if self.S.p.tricks_left == 0:
            return terminal_value(&self.S.p), True
        if main:
            tc_catch_signals()
        self.S.defence_moves = defence_moves
        with nogil:
            v = ab(&self.S, alpha, beta, rel)
        self.S.defence_moves = 0
        if main:
            sig = tc_release_signals()
            if sig:
                while self.S.p.ply > ply0:
                    unmake(&self.S.p)
                signal.raise_signal(sig)
                raise KeyboardInterrupt
        if self.S.aborted:
            while self.S.p.ply > ply0:
                unmake(&self.S.p)
            return 0, False
        return v, True

    def now(self):
        """The clock used for deadlines."""
        return tc_now()

    def stop_at(self, double when):
        """End every search at ``when`` (:meth:`now`'s clock; 0: never), the one in
        progress in another thread too: it reads this at its next deadline check."""
        self.S.stop = when

    @property
    def stop(self):
        """:meth:`stop_at`'s time (0.0: none)."""
        return self.S.stop

    def reset_counters(self):
        self.S.nodes = 0
        self.S.tt_probes = 0
        self.S.tt_hits = 0
        self.S.tt_shifted = 0
        self.S.run_shifts = 0
        self.S.tt_stores = 0

    @property
    def nodes(self):
        return self.S.nodes

    @property
    def tt_probes(self):
        return self.S.tt_probes

    @property
    def tt_hits(self):
        return self.S.tt_hits

    @property
    def tt_stores(self):
        return self.S.tt_stores

    @property
    def tt_shifted(self):
        return self.S.tt_shifted

    @property
    def run_shifts(self):
        return self.S.run_shifts

    def table_move(self):
        """The table's best card for the current position (trick start), or None."""
        cdef Key key
        cdef Entry* e
        cdef int lo, hi, shifted
        cdef uint64_t mask[2]
        cdef uint32_t tag, hx
        if self.S.p.ntrick != 0:
            return None
        make_key(&self.S.p, &key)
        hx = tt_hash(&self.S, &key, &tag)     # sets tag: not in the same call
        e = tt_find(tt_at(&self.S, hx), tag, &key, &lo, &hi, mask, &shifted, self.S.use_similar, INF, -INF)
        if e == NULL:
            return None
        c = abs_move(&self.S.p, e.move)
        return None if c < 0 else c

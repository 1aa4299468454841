// AgentGrid: the build (a counting sort of the agents by cell, dense or hashed, in parallel
// chunks) and the queries (item ranges around a point, nearest neighbours). The dense cells'
// kd-trees are in agent_grid_kd_tree.cpp.
#include "agent_grid.hpp"

#include <array>
#include <bit>
#include <limits>

#include "thread_pool.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace orca::detail {

namespace {

struct CellXY {
    std::int32_t x;
    std::int32_t y;
};

/// (cellCoord(p.x), cellCoord(p.y)) for `inv` = 1 / cell size: both at once with SSE2, the
/// same operations lane by lane. A NaN coordinate (a corrupt state the step is about to refuse)
/// lands on the low clamp in both, so every cell coordinate stays far from the int32 limits.
inline CellXY cellOf(const Vec2& p, double inv) {
#if defined(__SSE2__)
    __m128d c = _mm_mul_pd(_mm_loadu_pd(&p.x), _mm_set1_pd(inv));
    c = _mm_max_pd(c, _mm_set1_pd(-1.0e9)); // c > -1e9 ? c : -1e9 (so NaN -> -1e9)
    c = _mm_min_pd(c, _mm_set1_pd(1.0e9));  // c < 1e9 ? c : 1e9
    const __m128i t = _mm_cvttpd_epi32(c);  // truncated, in lanes 0 and 1
    const __m128d below = _mm_cmplt_pd(c, _mm_cvtepi32_pd(t));
    // Each 64-bit mask's low half to lanes 0 and 1: t - 1 where c < t.
    const __m128i r =
        _mm_add_epi32(t, _mm_shuffle_epi32(_mm_castpd_si128(below), _MM_SHUFFLE(3, 3, 2, 0)));
    const auto both = static_cast<std::uint64_t>(_mm_cvtsi128_si64(r));
    return {static_cast<std::int32_t>(std::uint32_t(both)),
            static_cast<std::int32_t>(std::uint32_t(both >> 32))};
#else
    auto coord = [inv](double v) {
        const double c = clampCell(v * inv);
        const auto t = static_cast<std::int32_t>(c);
        return t - static_cast<std::int32_t>(c < static_cast<double>(t));
    };
    return {coord(p.x), coord(p.y)};
#endif
}

} // namespace

template <class Fn>
void AgentGrid::forChunks(ThreadPool* pool, std::size_t chunks, std::size_t n, const Fn& fn) {
    if (chunks == 1) {
        fn(std::size_t{0}, std::size_t{0}, n);
        return;
    }
    pool->parallelFor(chunks, 1, [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t k = begin; k < end; ++k)
            fn(k, n * k / chunks, n * (k + 1) / chunks);
    });
}

void AgentGrid::build(std::span<const Vec2> pos, double cellSize, ThreadPool* pool) {
    // A counting sort of the agents by cell, over contiguous chunks of agents (one per worker):
    // each chunk counts its agents per cell, the counts become cell starts and per-chunk
    // write cursors, and each chunk copies its agents to their items. Within a cell, chunk k's
    // agents come before chunk k + 1's, each in ascending index: the layout is the same for
    // any number of chunks.
    const std::size_t n = pos.size();
    const bool sameCells = m_built && cellSize == m_cellSize;
    m_cellSize = cellSize;
    m_invCellSize = 1.0 / cellSize;
    m_agentCell.resize(n);
    const std::size_t chunks =
        pool == nullptr
            ? 1
            : std::clamp<std::size_t>(n / kMinChunkAgents, 1,
                                      std::min(static_cast<std::size_t>(pool->size()), kMaxChunks));

    // First pass: the bounding box in cells (each chunk's, then merged) decides the mode; the
    // counting of the mode the previous build was in goes along (a guess, redone if wrong).
    Guess guess = Guess::Box;
    if (sameCells && n > 0)
        guess = m_dense ? Guess::Dense : chunks == 1 ? Guess::Assign : Guess::Runs;
    if (guess == Guess::Dense) {
        // Not when the margin would make the box much larger (a box one cell wide), nor
        // beyond the clamp (the cell of a NaN coordinate).
        const Box& last = m_lastBox;
        const double cells = (double(last.x1) - last.x0 + 1.0 + 2 * kBoxMargin) *
                             (double(last.y1) - last.y0 + 1.0 + 2 * kBoxMargin);
        if (cells > 5.0 * static_cast<double>(n) + 2048.0 || last.x0 < -1'000'000'000 ||
            last.y0 < -1'000'000'000)
            guess = Guess::Box;
    }
    if (guess == Guess::Dense) {
        const Box& last = m_lastBox;
        m_x0 = last.x0 - kBoxMargin;
        m_y0 = last.y0 - kBoxMargin;
        m_cols = last.x1 - last.x0 + 1 + 2 * kBoxMargin;
        m_rows = last.y1 - last.y0 + 1 + 2 * kBoxMargin;
        m_cells = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
        m_cellStart.resize(m_cells + 1);
        m_cursor.resize((chunks - 1) * m_cells);
    } else if (guess == Guess::Runs) {
        m_chunkRuns.resize(chunks);
    }
    m_chunkBox.resize(chunks);
    forChunks(pool, chunks, n, [&](std::size_t k, std::size_t begin, std::size_t end) {
        m_chunkBox[k] = firstPass(guess, pos, k, begin, end);
    });
    Box box{0, -1, 0, -1, false};
    if (n > 0) {
        box = m_chunkBox[0];
        for (const Box& b : m_chunkBox) {
            box.x0 = std::min(box.x0, b.x0);
            box.x1 = std::max(box.x1, b.x1);
            box.y0 = std::min(box.y0, b.y0);
            box.y1 = std::max(box.y1, b.y1);
            box.outside = box.outside || b.outside;
        }
    }
    const double boxCells = (double(box.x1) - box.x0 + 1.0) * (double(box.y1) - box.y0 + 1.0);
    m_dense = boxCells <= 4.0 * static_cast<double>(n) + 1024.0;
    m_lastBox = box;
    m_built = true;

    // Every agent's cell, and the agents per cell counted by each chunk, unless the first
    // pass did it.
    bool counted = false;
    if (m_dense) {
        m_groupKeys.clear();
        counted = guess == Guess::Dense && !box.outside;
        if (!counted) {
            m_x0 = box.x0;
            m_y0 = box.y0;
            m_cols = std::max(box.x1 - box.x0 + 1, 0);
            m_rows = std::max(box.y1 - box.y0 + 1, 0);
            m_cells = static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
        }
    } else {
        if (guess == Guess::Assign) {
            counted = true;
        } else if (guess == Guess::Runs) {
            mergeRuns();
        } else if (chunks == 1) {
            firstPass(Guess::Assign, pos, 0, 0, n);
            counted = true;
        } else {
            m_chunkRuns.resize(chunks);
            forChunks(pool, chunks, n, [&](std::size_t k, std::size_t begin, std::size_t end) {
                firstPass(Guess::Runs, pos, k, begin, end);
            });
            mergeRuns();
        }
        m_cells = m_groupKeys.size() * kGroupCells;
    }
    m_cellStart.resize(m_cells + 1);
    m_cursor.resize((chunks - 1) * m_cells);
    if (!counted) {
        forChunks(pool, chunks, n, [&](std::size_t k, std::size_t begin, std::size_t end) {
            countPass(pos, k, begin, end);
        });
    }
    prefixCells(pool, chunks);
    scatter(pos, pool, chunks);
    buildDenseCells();
}

AgentGrid::Box AgentGrid::firstPass(Guess guess, std::span<const Vec2> pos, std::size_t k,
                                    std::size_t begin, std::size_t end) {
    Box box{std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(),
            std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(),
            false};
    auto extend = [&box](CellXY c) {
        box.x0 = std::min(box.x0, c.x);
        box.x1 = std::max(box.x1, c.x);
        box.y0 = std::min(box.y0, c.y);
        box.y1 = std::max(box.y1, c.y);
    };
    const double inv = m_invCellSize;
    std::uint32_t* cell = m_agentCell.data();
    switch (guess) {
    case Guess::Box:
        for (std::size_t i = begin; i < end; ++i)
            extend(cellOf(pos[i], inv));
        break;
    case Guess::Dense: {
        std::uint32_t* count = k == 0 ? m_cellStart.data() : m_cursor.data() + (k - 1) * m_cells;
        std::fill(count, count + m_cells, 0u);
        // Offsets in unsigned arithmetic: cells left of or above the box wrap to large values.
        const auto x0 = static_cast<std::uint32_t>(m_x0);
        const auto y0 = static_cast<std::uint32_t>(m_y0);
        const auto cols = static_cast<std::uint32_t>(m_cols);
        const auto rows = static_cast<std::uint32_t>(m_rows);
        for (std::size_t i = begin; i < end; ++i) {
            const CellXY xy = cellOf(pos[i], inv);
            extend(xy);
            const std::uint32_t col = static_cast<std::uint32_t>(xy.x) - x0;
            const std::uint32_t row = static_cast<std::uint32_t>(xy.y) - y0;
            if (col >= cols || row >= rows) {
                box.outside = true; // the caller counts again; only the box matters now
                for (++i; i < end; ++i)
                    extend(cellOf(pos[i], inv));
                break;
            }
            const std::uint32_t c = row * cols + col;
            cell[i] = c;
            ++count[c];
        }
        break;
    }
    case Guess::Assign: {
        resetTable();
        m_groupKeys.clear();
        m_cellStart.clear();
        std::uint64_t lastKey = ~std::uint64_t{0}; // no group's key
        std::uint32_t base = 0;                    // first cell of lastKey's group
        std::uint32_t* count = m_cellStart.data();
        for (std::size_t i = begin; i < end; ++i) {
            const CellXY xy = cellOf(pos[i], inv);
            extend(xy);
            const std::uint64_t key = makeKey(xy.x >> kGroupShift, xy.y >> kGroupShift);
            if (key != lastKey) { // neighbouring agents often share a group
                base = groupOf(key) * kGroupCells;
                if (base == m_cellStart.size()) { // a new group
                    m_cellStart.resize(base + kGroupCells, 0u);
                    count = m_cellStart.data();
                }
                lastKey = key;
            }
            const std::uint32_t c = base + static_cast<std::uint32_t>(localIndex(xy.x, xy.y));
            cell[i] = c;
            ++count[c];
        }
        m_lastGroupCount = m_groupKeys.size();
        break;
    }
    case Guess::Runs: {
        std::vector<Run> runs = std::move(m_chunkRuns[k]); // a local: no false sharing
        runs.clear();
        std::uint64_t lastKey = ~std::uint64_t{0};
        std::uint32_t base = 0; // run * kGroupCells
        for (std::size_t i = begin; i < end; ++i) {
            const CellXY xy = cellOf(pos[i], inv);
            extend(xy);
            const std::uint64_t key = makeKey(xy.x >> kGroupShift, xy.y >> kGroupShift);
            if (key != lastKey) {
                base = static_cast<std::uint32_t>(runs.size()) * kGroupCells;
                runs.push_back({key, 0});
                lastKey = key;
            }
            cell[i] = base + static_cast<std::uint32_t>(localIndex(xy.x, xy.y));
        }
        m_chunkRuns[k] = std::move(runs);
        break;
    }
    }
    return box;
}

void AgentGrid::countPass(std::span<const Vec2> pos, std::size_t k, std::size_t begin,
                          std::size_t end) {
    std::uint32_t* count = k == 0 ? m_cellStart.data() : m_cursor.data() + (k - 1) * m_cells;
    std::fill(count, count + m_cells, 0u);
    std::uint32_t* cell = m_agentCell.data();
    if (!m_dense) {
        const Run* runs = m_chunkRuns[k].data();
        for (std::size_t i = begin; i < end; ++i) {
            const std::uint32_t c =
                runs[cell[i] / kGroupCells].group * kGroupCells + cell[i] % kGroupCells;
            cell[i] = c;
            ++count[c];
        }
        return;
    }
    const double inv = m_invCellSize;
    const std::int32_t x0 = m_x0, y0 = m_y0, cols = m_cols;
    for (std::size_t i = begin; i < end; ++i) {
        const CellXY xy = cellOf(pos[i], inv);
        const auto c = static_cast<std::uint32_t>((xy.y - y0) * cols + (xy.x - x0));
        cell[i] = c;
        ++count[c];
    }
}

void AgentGrid::resetTable() {
    // At most half full (linear probing stays short), sized from the previous step's group
    // count (it changes little between steps); grown while the groups are numbered if the
    // crowd spread, reallocated smaller if it gathered.
    const std::size_t want =
        std::bit_ceil(std::max<std::size_t>(2 * (m_lastGroupCount + m_lastGroupCount / 4), 64));
    if (m_slots.size() < want || m_slots.size() > 8 * want) {
        m_slots = std::vector<Slot>(want, Slot{0, 0, 0});
        m_epoch = 0;
    }
    if (++m_epoch == 0) { // wrapped: slots of 2^32 builds ago would look current
        std::fill(m_slots.begin(), m_slots.end(), Slot{0, 0, 0});
        m_epoch = 1;
    }
    m_shift = 64 - std::countr_zero(m_slots.size());
    m_mask = m_slots.size() - 1;
}

void AgentGrid::growTable() {
    m_slots = std::vector<Slot>(2 * m_slots.size(), Slot{0, 0, 0});
    m_epoch = 1;
    m_shift = 64 - std::countr_zero(m_slots.size());
    m_mask = m_slots.size() - 1;
    for (std::size_t g = 0; g < m_groupKeys.size(); ++g) {
        std::size_t s = slotOf(m_groupKeys[g]);
        while (m_slots[s].epoch == m_epoch)
            s = (s + 1) & m_mask;
        m_slots[s] = {m_groupKeys[g], static_cast<std::uint32_t>(g), m_epoch};
    }
}

std::uint32_t AgentGrid::groupOf(std::uint64_t key) {
    std::size_t s = slotOf(key);
    for (; m_slots[s].epoch == m_epoch; s = (s + 1) & m_mask) {
        if (m_slots[s].key == key) return m_slots[s].group;
    }
    const auto group = static_cast<std::uint32_t>(m_groupKeys.size());
    m_groupKeys.push_back(key);
    if (2 * m_groupKeys.size() > m_slots.size()) {
        growTable(); // inserts this group too
    } else {
        m_slots[s] = {key, group, m_epoch};
    }
    return group;
}

void AgentGrid::mergeRuns() {
    resetTable();
    m_groupKeys.clear();
    for (std::vector<Run>& runs : m_chunkRuns) {
        for (Run& run : runs)
            run.group = groupOf(run.key);
    }
    m_lastGroupCount = m_groupKeys.size();
}

namespace {

/// The prefix pass over cells [c0, c0 + len), len <= 64, whose items start at `run` (see
/// AgentGrid::prefixCells()): per cell, the counts of chunk 0 (in start[]) and of chunk k > 0
/// (in cursor[(k - 1) * cells]) become the write cursors: start[c] = the end of chunk 0's
/// part, cursor = the start of chunk k's part. begin[l] = cell c0 + l's first item,
/// begin[len] = the end; returns the occupied cells' bits and advances `run`. Four cells at a
/// time with SSE2 (a prefix sum within the vector), without a branch per cell.
std::uint64_t prefixSegment(std::uint32_t* start, std::uint32_t* cursor, std::size_t cells,
                            std::size_t chunks, std::size_t c0, std::size_t len, std::uint32_t& run,
                            std::uint32_t* begin) {
    std::uint64_t occupied = 0;
    std::size_t l = 0;
#if defined(__SSE2__)
    auto at = [](std::uint32_t* p) { return reinterpret_cast<__m128i*>(p); };
    for (; l + 4 <= len; l += 4) {
        const std::size_t c = c0 + l;
        const __m128i first = _mm_loadu_si128(at(start + c));
        __m128i total = first;
        for (std::size_t k = 1; k < chunks; ++k)
            total = _mm_add_epi32(total, _mm_loadu_si128(at(cursor + (k - 1) * cells + c)));
        __m128i end = _mm_add_epi32(total, _mm_slli_si128(total, 4));
        end = _mm_add_epi32(end, _mm_slli_si128(end, 8));
        end = _mm_add_epi32(end, _mm_set1_epi32(static_cast<int>(run)));
        const __m128i from = _mm_sub_epi32(end, total);
        _mm_storeu_si128(at(begin + l), from);
        __m128i next = _mm_add_epi32(from, first);
        _mm_storeu_si128(at(start + c), next);
        for (std::size_t k = 1; k < chunks; ++k) {
            const __m128i count = _mm_loadu_si128(at(cursor + (k - 1) * cells + c));
            _mm_storeu_si128(at(cursor + (k - 1) * cells + c), next);
            next = _mm_add_epi32(next, count);
        }
        run = static_cast<std::uint32_t>(
            _mm_cvtsi128_si32(_mm_shuffle_epi32(end, _MM_SHUFFLE(3, 3, 3, 3))));
        const int empty =
            _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(total, _mm_setzero_si128())));
        occupied |= std::uint64_t(~empty & 0xF) << l;
    }
#endif
    for (; l < len; ++l) {
        const std::size_t c = c0 + l;
        begin[l] = run;
        run += start[c];
        start[c] = run;
        for (std::size_t k = 1; k < chunks; ++k) {
            std::uint32_t& next = cursor[(k - 1) * cells + c];
            const std::uint32_t count = next;
            next = run;
            run += count;
        }
        occupied |= std::uint64_t(run != begin[l]) << l;
    }
    begin[len] = run;
    return occupied;
}

} // namespace

template <class Emit, class Big>
std::uint32_t AgentGrid::prefixUnits(std::size_t chunks, std::size_t u0, std::size_t u1,
                                     std::uint32_t run, Emit&& emit, Big&& big) {
    std::uint32_t* start = m_cellStart.data();
    std::uint32_t* cursor = m_cursor.data();
    std::array<std::uint32_t, 65> begin;
    std::size_t listed = 0;
    // The occupied cells of a segment, found by their bits; local index l at (cx + l, cy), or
    // in a group at (cx + l % 4, cy + l / 4).
    auto list = [&](std::uint64_t occupied, std::int32_t cx, std::int32_t cy, bool group) {
        constexpr std::int32_t mask = (1 << kGroupShift) - 1;
        for (; occupied != 0; occupied &= occupied - 1) {
            const auto l = static_cast<std::int32_t>(std::countr_zero(occupied));
            const std::uint32_t b = begin[std::size_t(l)];
            const std::uint32_t count = begin[std::size_t(l) + 1] - b;
            if (count > kDenseCellItems) big(listed);
            if (group) {
                emit(cx | (l & mask), cy | (l >> kGroupShift), b, count);
            } else {
                emit(cx + l, cy, b, count);
            }
            ++listed;
        }
    };
    if (m_dense) {
        const auto cols = static_cast<std::size_t>(m_cols);
        for (std::size_t row = u0; row < u1; ++row) {
            for (std::size_t col = 0; col < cols; col += 64) {
                const std::size_t len = std::min<std::size_t>(cols - col, 64);
                list(prefixSegment(start, cursor, m_cells, chunks, row * cols + col, len, run,
                                   begin.data()),
                     m_x0 + static_cast<std::int32_t>(col), m_y0 + static_cast<std::int32_t>(row),
                     false);
            }
        }
    } else {
        for (std::size_t g = u0; g < u1; ++g) {
            const std::uint64_t key = m_groupKeys[g];
            const auto gx = static_cast<std::int32_t>(std::uint32_t(key >> 32) ^ 0x80000000u);
            const auto gy = static_cast<std::int32_t>(std::uint32_t(key) ^ 0x80000000u);
            list(prefixSegment(start, cursor, m_cells, chunks, g * kGroupCells, kGroupCells, run,
                               begin.data()),
                 gx * (1 << kGroupShift), gy * (1 << kGroupShift), true);
        }
    }
    return run;
}

void AgentGrid::prefixCells(ThreadPool* pool, std::size_t chunks) {
    // Cell c's items: chunk 0's agents, then chunk 1's, ... Chunk 0 fills its part from the
    // end down (its agents in reverse order), so its cursor, m_cellStart[c], ends at the
    // cell's start; chunk k > 0 fills its part upwards from its cursor.
    m_bigCells.clear();
    const std::size_t units = m_dense ? static_cast<std::size_t>(m_rows) : m_groupKeys.size();
    const std::size_t unitCells = m_dense ? static_cast<std::size_t>(m_cols) : kGroupCells;
    const std::size_t spans =
        chunks == 1 ? 1 : std::clamp<std::size_t>(m_cells / kMinSpanCells, 1, chunks);
    if (spans == 1) {
        m_occupied.clear();
        m_cellStart[m_cells] = prefixUnits(
            chunks, 0, units, 0,
            [this](std::int32_t cx, std::int32_t cy, std::uint32_t b, std::uint32_t count) {
                m_occupied.push_back({cx, cy, b, count});
            },
            [this](std::size_t k) { m_bigCells.push_back(static_cast<std::uint32_t>(k)); });
        return;
    }
    // Spans of whole rows or groups: each span's items and occupied cells (in parallel), where
    // they start (serial, one per span), then the prefix pass of each span (in parallel).
    const std::uint32_t* start = m_cellStart.data();
    const std::uint32_t* cursor = m_cursor.data();
    m_spans.resize(spans);
    auto unitsOf = [&](std::size_t j) {
        return std::pair<std::size_t, std::size_t>(units * j / spans, units * (j + 1) / spans);
    };
    pool->parallelFor(spans, 1, [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t j = begin; j < end; ++j) {
            const auto [u0, u1] = unitsOf(j);
            std::uint32_t items = 0;
            std::uint32_t empty = 0;
            std::size_t c = u0 * unitCells;
            const std::size_t last = u1 * unitCells;
#if defined(__SSE2__)
            __m128i items4 = _mm_setzero_si128();
            __m128i empty4 = _mm_setzero_si128(); // -1 per empty cell
            for (; c + 4 <= last; c += 4) {
                __m128i total = _mm_loadu_si128(reinterpret_cast<const __m128i*>(start + c));
                for (std::size_t k = 1; k < chunks; ++k) {
                    total = _mm_add_epi32(total, _mm_loadu_si128(reinterpret_cast<const __m128i*>(
                                                     cursor + (k - 1) * m_cells + c)));
                }
                items4 = _mm_add_epi32(items4, total);
                empty4 = _mm_add_epi32(empty4, _mm_cmpeq_epi32(total, _mm_setzero_si128()));
            }
            std::array<std::uint32_t, 4> lanes;
            _mm_storeu_si128(reinterpret_cast<__m128i*>(lanes.data()), items4);
            items = lanes[0] + lanes[1] + lanes[2] + lanes[3];
            _mm_storeu_si128(reinterpret_cast<__m128i*>(lanes.data()), empty4);
            empty = 0u - (lanes[0] + lanes[1] + lanes[2] + lanes[3]);
#endif
            for (; c < last; ++c) {
                std::uint32_t total = start[c];
                for (std::size_t k = 1; k < chunks; ++k)
                    total += cursor[(k - 1) * m_cells + c];
                items += total;
                empty += total == 0 ? 1u : 0u;
            }
            m_spans[j] = {items, static_cast<std::uint32_t>((u1 - u0) * unitCells) - empty};
        }
    });
    std::uint32_t items = 0;
    std::uint32_t occupied = 0;
    for (Span& span : m_spans) {
        const Span sum = span;
        span = {items, occupied};
        items += sum.items;
        occupied += sum.occupied;
    }
    m_occupied.resize(occupied);
    m_spanBigCells.resize(spans);
    pool->parallelFor(spans, 1, [&](std::size_t begin, std::size_t end, int) {
        for (std::size_t j = begin; j < end; ++j) {
            const auto [u0, u1] = unitsOf(j);
            CellView* out = m_occupied.data() + m_spans[j].occupied;
            std::vector<std::uint32_t>& big = m_spanBigCells[j];
            big.clear();
            const std::uint32_t first = m_spans[j].occupied;
            prefixUnits(
                chunks, u0, u1, m_spans[j].items,
                [&out](std::int32_t cx, std::int32_t cy, std::uint32_t b, std::uint32_t count) {
                    *out++ = {cx, cy, b, count};
                },
                [&](std::size_t k) { big.push_back(first + static_cast<std::uint32_t>(k)); });
        }
    });
    for (const std::vector<std::uint32_t>& big : m_spanBigCells)
        m_bigCells.insert(m_bigCells.end(), big.begin(), big.end());
    m_cellStart[m_cells] = items;
}

void AgentGrid::scatter(std::span<const Vec2> pos, ThreadPool* pool, std::size_t chunks) {
    const std::size_t n = pos.size();
    m_itemPos.resize(n);
    m_itemAgent.resize(n);
    forChunks(pool, chunks, n, [&](std::size_t k, std::size_t begin, std::size_t end) {
        const std::uint32_t* cell = m_agentCell.data();
        auto put = [&](std::uint32_t item, std::size_t i) {
            m_itemPos[item] = pos[i];
            m_itemAgent[item] = static_cast<std::uint32_t>(i);
        };
        if (k == 0) {
            std::uint32_t* cursor = m_cellStart.data();
            for (std::size_t i = end; i-- > begin;)
                put(--cursor[cell[i]], i);
        } else {
            std::uint32_t* cursor = m_cursor.data() + (k - 1) * m_cells;
            for (std::size_t i = begin; i < end; ++i)
                put(cursor[cell[i]]++, i);
        }
    });
}

namespace {

/// Appends items [b, e) to the ranges ending at `w`, merged into the last range when it ends
/// where this one begins (cells adjacent in item order); returns the new end. `first` is the
/// start of the output.
inline ItemRange* appendRange(ItemRange* first, ItemRange* w, std::uint32_t b, std::uint32_t e) {
    if (b == e) return w;
    if (w != first && w[-1].end == b) {
        w[-1].end = e;
        return w;
    }
    *w = {b, e};
    return w + 1;
}

/// Appends items [b, e) to `out`, merged into the last range when contiguous.
inline void pushRange(std::vector<ItemRange>& out, std::uint32_t b, std::uint32_t e) {
    if (b == e) return;
    if (!out.empty() && out.back().end == b) {
        out.back().end = e;
        return;
    }
    out.push_back({b, e});
}

} // namespace

void AgentGrid::boxRanges(std::int32_t x0, std::int32_t x1, std::int32_t y0, std::int32_t y1,
                          std::vector<ItemRange>& out) const {
    // Contiguous ranges are merged (fewer, longer ranges to scan). Dense mode writes them
    // through a pointer into `out`, sized for one range per row, then trimmed; hashed mode
    // (ranges per group and row, most of them merged) appends them.
    if (m_dense) {
        x0 = std::max(x0, m_x0);
        x1 = std::min(x1, m_x0 + m_cols - 1);
        y0 = std::max(y0, m_y0);
        y1 = std::min(y1, m_y0 + m_rows - 1);
        if (x0 > x1 || y0 > y1) {
            out.clear();
            return;
        }
        out.resize(static_cast<std::size_t>(y1 - y0 + 1));
        ItemRange* const first = out.data();
        ItemRange* w = first;
        const std::uint32_t* start = m_cellStart.data();
        for (std::int32_t y = y0; y <= y1; ++y) {
            // The cells of a row are contiguous: one range per row.
            const std::size_t row = static_cast<std::size_t>(y - m_y0) * std::size_t(m_cols);
            w = appendRange(first, w, start[row + std::size_t(x0 - m_x0)],
                            start[row + std::size_t(x1 - m_x0) + 1]);
        }
        out.resize(static_cast<std::size_t>(w - first));
        return;
    }
    out.clear();
    if (m_groupKeys.empty()) return;
    const double boxCells = (double(x1) - x0 + 1.0) * (double(y1) - y0 + 1.0);
    if (boxCells > double(m_occupied.size())) {
        // A huge box: cheaper to walk the occupied cells than the box (at most one range per
        // occupied cell).
        for (const CellView& c : m_occupied) {
            if (c.cx >= x0 && c.cx <= x1 && c.cy >= y0 && c.cy <= y1)
                pushRange(out, c.start, c.start + c.count);
        }
        return;
    }
    // Group by group (each looked up once): the box's rows within a group, one range per row,
    // or one for all of them when the box spans the group's whole width (its rows are then
    // contiguous).
    constexpr std::int32_t mask = (1 << kGroupShift) - 1;
    const std::int32_t gx0 = x0 >> kGroupShift, gx1 = x1 >> kGroupShift;
    const std::int32_t gy0 = y0 >> kGroupShift, gy1 = y1 >> kGroupShift;
    for (std::int32_t gy = gy0; gy <= gy1; ++gy) {
        const int ly0 = gy == gy0 ? (y0 & mask) : 0;
        const int ly1 = gy == gy1 ? (y1 & mask) : mask;
        for (std::int32_t gx = gx0; gx <= gx1; ++gx) {
            const std::uint32_t g = findGroup(gx, gy);
            if (g == kNoGroup) continue;
            const int lx0 = gx == gx0 ? (x0 & mask) : 0;
            const int lx1 = gx == gx1 ? (x1 & mask) : mask;
            const std::uint32_t* start = m_cellStart.data() + std::size_t(g) * kGroupCells;
            if (lx0 == 0 && lx1 == mask) {
                pushRange(out, start[ly0 << kGroupShift], start[(ly1 + 1) << kGroupShift]);
                continue;
            }
            for (int ly = ly0; ly <= ly1; ++ly) {
                pushRange(out, start[(ly << kGroupShift) + lx0],
                          start[(ly << kGroupShift) + lx1 + 1]);
            }
        }
    }
}

void AgentGrid::rangesNear(Vec2 p, double range, std::vector<ItemRange>& out) const {
    boxRanges(cellCoord(p.x - range), cellCoord(p.x + range), cellCoord(p.y - range),
              cellCoord(p.y + range), out);
}

void AgentGrid::blockRanges(std::int32_t cx, std::int32_t cy, int r,
                            std::vector<ItemRange>& out) const {
    boxRanges(cx - r, cx + r, cy - r, cy + r, out);
}

void AgentGrid::nearest(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                        std::vector<Neighbor>& out, std::vector<ItemRange>& ranges) const {
    out.clear();
    if (maxNeighbors == 0 || !(rangeSq > 0.0)) return;
    rangesNear(p, std::sqrt(rangeSq), ranges);
    nearestIn(p, self, rangeSq, maxNeighbors, ranges, out);
}

void AgentGrid::nearestIn(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                          std::span<const ItemRange> ranges, std::vector<Neighbor>& out) const {
    out.clear();
    if (maxNeighbors == 0 || !(rangeSq > 0.0)) return;
    double limitSq = rangeSq; // shrinks to the farthest kept once the list is full
    offerRanges(p, self, rangeSq, maxNeighbors, ranges, out, limitSq);
}

void AgentGrid::nearestFrom(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                            ItemRange own, std::int32_t cx, std::int32_t cy, int startRadius,
                            std::span<const ItemRange> start, std::vector<Neighbor>& out,
                            std::vector<ItemRange>& ranges) const {
    out.clear();
    if (maxNeighbors == 0 || !(rangeSq > 0.0)) return;
    double limitSq = rangeSq;
    // p's own cell first: its nearest agents are usually there, and the list's limit then
    // rejects most of the block at once (a crowd of coincident agents spreading out: 3x).
    if (own.begin < own.end) {
        offerRanges(p, self, rangeSq, maxNeighbors, std::span<const ItemRange>(&own, 1), out,
                    limitSq);
    }
    for (const ItemRange& r : start) {
        if (own.begin < own.end && own.begin >= r.begin && own.end <= r.end) {
            const ItemRange rest[2] = {{r.begin, own.begin}, {own.end, r.end}};
            for (const ItemRange& part : rest)
                if (part.begin < part.end)
                    offerRanges(p, self, rangeSq, maxNeighbors,
                                std::span<const ItemRange>(&part, 1), out, limitSq);
        } else {
            offerRanges(p, self, rangeSq, maxNeighbors, std::span<const ItemRange>(&r, 1), out,
                        limitSq);
        }
    }
    nearestBeyond(p, self, rangeSq, maxNeighbors, cx, cy, startRadius, out, ranges);
}

void AgentGrid::nearestBeyond(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                              std::int32_t cx, std::int32_t cy, int startRadius,
                              std::vector<Neighbor>& out, std::vector<ItemRange>& ranges) const {
    if (maxNeighbors == 0 || !(rangeSq > 0.0)) return;
    // Every agent that can still make the list is within the k-th distance found so far (or
    // the range): the square of that half-width around p, widened far beyond the rounding of
    // the square root and of the cell coordinates, holds them all.
    const double bound = out.size() == maxNeighbors ? out.back().distSq : rangeSq;
    double limitSq = bound;
    const double reach =
        std::sqrt(bound) * (1.0 + 1e-9) + 1e-9 * (std::abs(p.x) + std::abs(p.y) + m_cellSize);
    const std::int32_t x0 = cellCoord(p.x - reach), x1 = cellCoord(p.x + reach);
    const std::int32_t y0 = cellCoord(p.y - reach), y1 = cellCoord(p.y + reach);
    const std::int32_t sx0 = cx - startRadius, sx1 = cx + startRadius;
    const std::int32_t sy0 = cy - startRadius, sy1 = cy + startRadius;
    if (x0 >= sx0 && x1 <= sx1 && y0 >= sy0 && y1 <= sy1) return; // all seen
    // The rest of that square: the rows below and above the start block, then the columns
    // left and right of it.
    auto offerBox = [&](std::int32_t bx0, std::int32_t bx1, std::int32_t by0, std::int32_t by1) {
        if (bx0 > bx1 || by0 > by1) return;
        boxRanges(bx0, bx1, by0, by1, ranges);
        offerRanges(p, self, rangeSq, maxNeighbors, ranges, out, limitSq);
    };
    offerBox(x0, x1, y0, std::min(y1, sy0 - 1));
    offerBox(x0, x1, std::max(y0, sy1 + 1), y1);
    const std::int32_t ry0 = std::max(y0, sy0), ry1 = std::min(y1, sy1);
    offerBox(x0, std::min(x1, sx0 - 1), ry0, ry1);
    offerBox(std::max(x0, sx1 + 1), x1, ry0, ry1);
}

void AgentGrid::offerRanges(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                            std::span<const ItemRange> ranges, std::vector<Neighbor>& out,
                            double& limitSq) const {
    if (m_denseCells.empty()) {
        for (const ItemRange& r : ranges)
            scanItems(r.begin, r.end, p, self, rangeSq, maxNeighbors, out, limitSq);
        return;
    }
    for (const ItemRange& r : ranges) {
        splitRange(
            r,
            [&](std::uint32_t b, std::uint32_t e) {
                scanItems(b, e, p, self, rangeSq, maxNeighbors, out, limitSq);
            },
            [&](const DenseCell& cell) {
                searchTree(cell, p, self, rangeSq, maxNeighbors, out, limitSq);
            });
    }
}

void AgentGrid::scanItems(std::uint32_t b, std::uint32_t e, Vec2 p, std::uint32_t self,
                          double rangeSq, std::size_t maxNeighbors, std::vector<Neighbor>& out,
                          double& limitSq) const {
    for (std::uint32_t item = b; item < e; ++item) {
        const std::uint32_t agent = m_itemAgent[item];
        if (agent == self) continue;
        const double d = absSq(m_itemPos[item] - p);
        if (d > limitSq) continue;
        if (out.size() == maxNeighbors) {
            const Neighbor& last = out.back();
            if (d > last.distSq || (d == last.distSq && agent > last.agent)) continue;
            out.pop_back();
        } else if (d >= rangeSq) {
            continue; // strictly inside neighborDist
        }
        // Insertion sort by (distSq, agent index).
        std::size_t j = out.size();
        out.push_back({d, agent});
        while (j > 0 &&
               (d < out[j - 1].distSq || (d == out[j - 1].distSq && agent < out[j - 1].agent))) {
            out[j] = out[j - 1];
            --j;
        }
        out[j] = {d, agent};
        if (out.size() == maxNeighbors) limitSq = out.back().distSq;
    }
}

} // namespace orca::detail

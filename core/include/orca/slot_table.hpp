#pragma once
/// \file slot_table.hpp
/// Generational handles over a dense array whose elements may be removed (and so move): a
/// handle (slot, generation) keeps naming the same element until that element is removed, and
/// never names another one afterwards.

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace orca {

class SlotTable {
  public:
    static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

    /// A new handle for the element at dense `index`. Returns {slot, generation}.
    struct Handle {
        std::uint32_t slot;
        std::uint32_t generation;
    };
    Handle acquire(std::uint32_t index) {
        std::uint32_t slot;
        if (!m_free.empty()) {
            slot = m_free.back();
            m_free.pop_back();
        } else {
            slot = static_cast<std::uint32_t>(m_index.size());
            m_index.push_back(kNone);
            m_generation.push_back(0);
        }
        m_index[slot] = index;
        return {slot, m_generation[slot]};
    }
    /// Invalidates every handle of `slot` and makes the slot reusable.
    void release(std::uint32_t slot) {
        m_index[slot] = kNone;
        ++m_generation[slot];
        m_free.push_back(slot);
    }
    /// The element moved to dense `index`.
    void relocate(std::uint32_t slot, std::uint32_t index) { m_index[slot] = index; }
    /// Dense index of a live handle, or nullopt.
    [[nodiscard]] std::optional<std::uint32_t> find(std::uint32_t slot,
                                                    std::uint32_t generation) const {
        if (slot >= m_index.size() || m_generation[slot] != generation || m_index[slot] == kNone)
            return std::nullopt;
        return m_index[slot];
    }
    /// Bytes held (sizes, not capacities).
    [[nodiscard]] std::size_t bytes() const {
        return (m_index.size() + m_generation.size() + m_free.size()) * sizeof(std::uint32_t);
    }
    friend bool operator==(const SlotTable&, const SlotTable&) = default;
    void reserve(std::size_t n) {
        m_index.reserve(n);
        m_generation.reserve(n);
    }

  private:
    std::vector<std::uint32_t> m_index;      ///< slot -> dense index (kNone when free)
    std::vector<std::uint32_t> m_generation; ///< bumped on release
    std::vector<std::uint32_t> m_free;
};

} // namespace orca

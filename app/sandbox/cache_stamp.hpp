#pragma once
// Caches that follow a version counter (SandboxContext's stateVersion, Document::editVersion):
// a cache remembers the version it was computed for and is stale when the counter moved on.
// One member and one call per cache instead of a hand-kept "fooVersion" beside each.

#include <cstdint>
#include <utility>

namespace orca::app {

/// The version a cache was computed for. Starts (and is reset to) "never computed", so any
/// version is stale until refresh().
class CacheStamp {
  public:
    /// True when the cache was not computed for `version` (or was invalidated).
    [[nodiscard]] bool stale(std::uint64_t version) const { return m_version != version; }
    /// The cache now holds what `version` gives.
    void refresh(std::uint64_t version) { m_version = version; }
    /// Forces the next stale() to be true, whatever the version (the inputs changed in a way
    /// the counter does not see, e.g. the selection).
    void invalidate() { m_version = kNever; }

  private:
    static constexpr std::uint64_t kNever = ~std::uint64_t{0};
    std::uint64_t m_version = kNever;
};

/// A value computed from versioned state, recomputed only when the version moved on.
template <class T> class VersionedCache {
  public:
    /// The value for `version`: `compute()` (returning a T) runs only when the cache is stale.
    template <class Compute> const T& get(std::uint64_t version, Compute&& compute) {
        if (m_stamp.stale(version)) {
            m_value = std::forward<Compute>(compute)();
            m_stamp.refresh(version);
        }
        return m_value;
    }
    [[nodiscard]] bool stale(std::uint64_t version) const { return m_stamp.stale(version); }
    void invalidate() { m_stamp.invalidate(); }
    /// The last value computed (a default T before the first).
    [[nodiscard]] const T& value() const { return m_value; }

  private:
    T m_value{};
    CacheStamp m_stamp;
};

} // namespace orca::app

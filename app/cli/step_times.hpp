#pragma once
// `orca run`'s step times (msPerStepMedian, msPerStepMean) in bounded memory, whatever the
// number of steps: the sum of every time (an exact mean) and at most kCapacity samples for the
// median — every step's up to kCapacity steps; when the samples are full, every other one is
// dropped and from then on only every 2nd (4th, 8th, ...) step is sampled, so the samples stay
// evenly spaced over the whole run and the median is theirs.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace orca::cli {

class StepTimes {
  public:
    /// Samples kept at most (512 KiB of doubles).
    static constexpr std::size_t kCapacity = std::size_t{1} << 16;

    void add(double ms) {
        m_total += ms;
        if (m_count++ % m_stride != 0) return;
        if (m_samples.size() == kCapacity) {
            // Keep the samples of steps 0, 2s, 4s, ... and sample every 2s steps from now on.
            for (std::size_t i = 0; 2 * i < m_samples.size(); ++i)
                m_samples[i] = m_samples[2 * i];
            m_samples.resize(kCapacity / 2);
            m_stride *= 2;
            if ((m_count - 1) % m_stride != 0) return;
        }
        m_samples.push_back(ms);
    }

    /// Times added.
    [[nodiscard]] std::uint64_t count() const { return m_count; }
    [[nodiscard]] double total() const { return m_total; }
    [[nodiscard]] double mean() const {
        return m_count > 0 ? m_total / static_cast<double>(m_count) : 0.0;
    }
    /// The median of the kept samples (of every time up to kCapacity of them); 0 when empty.
    [[nodiscard]] double median() const {
        if (m_samples.empty()) return 0.0;
        std::vector<double> sorted = m_samples;
        std::sort(sorted.begin(), sorted.end());
        const std::size_t n = sorted.size();
        return n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    }
    /// Samples kept now (at most kCapacity) and the steps between two of them.
    [[nodiscard]] std::size_t kept() const { return m_samples.size(); }
    [[nodiscard]] std::uint64_t stride() const { return m_stride; }

  private:
    std::vector<double> m_samples;
    std::uint64_t m_stride = 1;
    std::uint64_t m_count = 0;
    double m_total = 0.0;
};

} // namespace orca::cli

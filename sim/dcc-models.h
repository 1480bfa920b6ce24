/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ns-3 models of the kernel modules: one TcpCongestionOps per module, each
 * driving the module's own core from ../include (no copy of the
 * algorithm).  Only the glue differs from tcp_<mod>.c: ns-3's per-ACK
 * RTT, rate sample, ECN echo and pacing rate stand in for the socket's.
 */
#ifndef DCC_SIM_MODELS_H
#define DCC_SIM_MODELS_H

#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-state.h"

namespace ns3
{

/* What every model shares: the clock, a kernel-style srtt, pacing. */
class TcpDccBase : public TcpCongestionOps
{
  public:
    static TypeId GetTypeId();
    TcpDccBase() = default;
    TcpDccBase(const TcpDccBase& o) = default;

  protected:
    static uint64_t NowUs();
    /* srtt as the kernel keeps it (1/8 EWMA of the samples), in us. */
    uint32_t SrttUs() const { return m_srttX8 >> 3; }
    void RttSample(uint32_t us);
    static void SetPacing(Ptr<TcpSocketState> tcb, uint64_t bytesPs);
    /* tcp_snd_cwnd() at init: ns-3 calls Init() on connect, before it
     * sets the initial window, so the window then reads 0. */
    static uint32_t InitialCwndPkts(Ptr<TcpSocketState> tcb)
    {
        uint32_t c = tcb->GetCwndInSegments();
        return c ? c : tcb->m_initialCWnd;
    }
    /* Does the kernel call cong_control for this ACK?  tcp_ack() returns
     * before it when nothing was outstanding (prior_packets == 0): the
     * receiving side of a connection never reaches it.  ns-3 calls
     * CongControl for every ACK, the receiver's too (with the handshake's
     * RTT sample still in m_lastRtt). */
    static bool KernelCongControl(const TcpRateOps::TcpRateSample& rs)
    {
        return rs.m_priorInFlight > 0 || rs.m_ackedSacked > 0;
    }
    /* This ACK's RTT sample (rs->rtt_us), 0 when it took none: ns-3 keeps
     * the previous sample in m_lastRtt on an ACK that did not advance
     * snd_una or that acknowledged retransmitted data (Karn). */
    uint32_t FreshRttUs(Ptr<TcpSocketState> tcb);
    /* tcp_is_cwnd_limited(): tcp_cwnd_validate()'s per-round latch
     * (cwnd_usage_seq, max_packets_out), judged at the ACK with the
     * in-flight before it; in slow start cwnd < 2 * max_packets_out. */
    bool CwndLimited(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateSample& rs);
    /* rs->interval_us as tcp_rate_gen() computes it, 0: no valid sample.
     * ns-3.37's TcpRateLinux::SkbDelivered() takes ack_elapsed from the
     * previous sample's prior time, not the acked packet's: a paced flow
     * with one packet in flight at a time read one pacing gap plus an RTT
     * (1448 B over 78 us at 10 Gbit/s, 80 % of its pacing rate) where
     * the kernel reads the RTT alone (tcp_rate_skb_sent() restarts the
     * clocks when nothing is out).  m_priorTime is the acked packet's. */
    static uint32_t RateIntervalUs(Ptr<TcpSocketState> tcb,
                                   const TcpRateOps::TcpRateSample& rs);
    uint32_t m_srttX8{0};
    uint32_t m_lastRttUs{0};
    SequenceNumber32 m_prevUna{0};
    SequenceNumber32 m_cwndUsageSeq{0};
    uint32_t m_maxOut{0};
    bool m_isCwndLimited{false};
};

class TcpSwiftModel : public TcpDccBase
{
  public:
    static TypeId GetTypeId();
    TcpSwiftModel();
    TcpSwiftModel(const TcpSwiftModel& o);
    ~TcpSwiftModel() override;
    std::string GetName() const override { return "swift"; }
    void Init(Ptr<TcpSocketState> tcb) override;
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override;
    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t ev) override;
    bool HasCongControl() const override { return true; }
    void CongControl(Ptr<TcpSocketState> tcb,
                     const TcpRateOps::TcpRateConnection& rc,
                     const TcpRateOps::TcpRateSample& rs) override;
    Ptr<TcpCongestionOps> Fork() override;
    /* Smallest window any connection reached, in 1/1000 packet. */
    static uint32_t MinCwndMpkt();

  private:
    void Apply(Ptr<TcpSocketState> tcb);
    struct Impl;
    Impl* m_impl;
};

class TcpTimelyModel : public TcpDccBase
{
  public:
    static TypeId GetTypeId();
    TcpTimelyModel();
    TcpTimelyModel(const TcpTimelyModel& o);
    ~TcpTimelyModel() override;
    std::string GetName() const override { return "timely"; }
    void Init(Ptr<TcpSocketState> tcb) override;
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override;
    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t ev) override;
    bool HasCongControl() const override { return true; }
    void CongControl(Ptr<TcpSocketState> tcb,
                     const TcpRateOps::TcpRateConnection& rc,
                     const TcpRateOps::TcpRateSample& rs) override;
    Ptr<TcpCongestionOps> Fork() override;

  protected:
    virtual uint32_t Variant() const;

  private:
    void Apply(Ptr<TcpSocketState> tcb, bool fromAck);
    void LossCut(Ptr<TcpSocketState> tcb, bool rto);
    struct Impl;
    Impl* m_impl;
};

/* The same core with variant=1 (patched), as "modprobe tcp_timely variant=1". */
class TcpTimelyPatchedModel : public TcpTimelyModel
{
  public:
    static TypeId GetTypeId();
    TcpTimelyPatchedModel() = default;
    TcpTimelyPatchedModel(const TcpTimelyPatchedModel& o) = default;
    std::string GetName() const override { return "timely-patched"; }
    Ptr<TcpCongestionOps> Fork() override;

  protected:
    uint32_t Variant() const override;
};

class TcpDcqcnModel : public TcpDccBase
{
  public:
    static TypeId GetTypeId();
    TcpDcqcnModel();
    TcpDcqcnModel(const TcpDcqcnModel& o);
    ~TcpDcqcnModel() override;
    std::string GetName() const override { return "dcqcn"; }
    void Init(Ptr<TcpSocketState> tcb) override;
    uint32_t GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight) override;
    void CongestionStateSet(Ptr<TcpSocketState> tcb,
                            const TcpSocketState::TcpCongState_t newState) override;
    void CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t ev) override;
    bool HasCongControl() const override { return true; }
    void CongControl(Ptr<TcpSocketState> tcb,
                     const TcpRateOps::TcpRateConnection& rc,
                     const TcpRateOps::TcpRateSample& rs) override;
    Ptr<TcpCongestionOps> Fork() override;

    /* Connect to every sender socket's "Rx" trace: the ECE flag of the
     * segment being processed. */
    static void SegmentReceived(Ptr<const Packet> p, const TcpHeader& h,
                                Ptr<const TcpSocketBase> sock);

  private:
    static bool s_ackEce;
    void CatchUp(Ptr<TcpSocketState> tcb, uint32_t bytes);
    void Apply(Ptr<TcpSocketState> tcb, uint32_t acked);
    void Loss(Ptr<TcpSocketState> tcb);
    uint64_t Achieved(Ptr<TcpSocketState> tcb) const;
    struct Impl;
    Impl* m_impl;
};

} // namespace ns3

#endif

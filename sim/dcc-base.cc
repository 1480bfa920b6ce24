// SPDX-License-Identifier: GPL-2.0
/* The glue every model shares: clock, srtt, pacing (see dcc-models.h). */
#include "dcc-models.h"

#include "ns3/simulator.h"

#include <algorithm>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TcpDccBase);

TypeId
TcpDccBase::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TcpDccBase").SetParent<TcpCongestionOps>().SetGroupName("Internet");
    return tid;
}

uint64_t
TcpDccBase::NowUs()
{
    return Simulator::Now().GetMicroSeconds();
}

void
TcpDccBase::RttSample(uint32_t us)
{
    if (!us)
        return;
    m_lastRttUs = us;
    /* tcp_rtt_estimator(): srtt += (m - srtt) / 8. */
    if (!m_srttX8)
        m_srttX8 = us << 3;
    else
        m_srttX8 = m_srttX8 - (m_srttX8 >> 3) + us;
}

uint32_t
TcpDccBase::FreshRttUs(Ptr<TcpSocketState> tcb)
{
    bool advanced = tcb->m_lastAckedSeq > m_prevUna;

    m_prevUna = std::max(m_prevUna, tcb->m_lastAckedSeq);
    if (!advanced || tcb->m_isRetransDataAcked)
        return 0;
    return (uint32_t)tcb->m_lastRtt.Get().GetMicroSeconds();
}

bool
TcpDccBase::CwndLimited(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateSample& rs)
{
    uint32_t seg = tcb->m_segmentSize;
    uint32_t out = (rs.m_priorInFlight + seg - 1) / seg;
    uint32_t cwnd = tcb->GetCwndInSegments();
    bool now = out >= cwnd;

    /* tcp_cwnd_validate(): a new round, a cwnd-limited moment, or more
     * out than seen this round. */
    if (tcb->m_lastAckedSeq >= m_cwndUsageSeq || now || (!m_isCwndLimited && out > m_maxOut))
    {
        m_isCwndLimited = now;
        m_maxOut = out;
        m_cwndUsageSeq = tcb->m_highTxMark;
    }
    if (m_isCwndLimited)
        return true;
    if (tcb->m_cWnd < tcb->m_ssThresh)
        return cwnd < 2 * m_maxOut;
    return false;
}

uint32_t
TcpDccBase::RateIntervalUs(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateSample& rs)
{
    if (rs.m_delivered <= 0 || rs.m_interval.IsZero() || rs.m_priorTime.IsZero())
        return 0;
    /* max(send phase, ack phase), at least min_rtt (tcp_rate_gen()). */
    Time iv = std::max(rs.m_sendElapsed, Simulator::Now() - rs.m_priorTime);
    if (iv < tcb->m_minRtt || iv.IsNegative())
        return 0;
    return (uint32_t)std::min<int64_t>(iv.GetMicroSeconds(), 0xffffffff);
}

void
TcpDccBase::SetPacing(Ptr<TcpSocketState> tcb, uint64_t bytesPs)
{
    tcb->m_pacing = true;
    tcb->m_pacingRate = DataRate(bytesPs * 8);
}

} // namespace ns3

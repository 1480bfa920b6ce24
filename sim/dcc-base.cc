// SPDX-License-Identifier: GPL-2.0
/* The glue every model shares: clock, srtt, pacing (see dcc-models.h). */
#include "dcc-models.h"

#include "ns3/simulator.h"

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

void
TcpDccBase::SetPacing(Ptr<TcpSocketState> tcb, uint64_t bytesPs)
{
    tcb->m_pacing = true;
    tcb->m_pacingRate = DataRate(bytesPs * 8);
}

} // namespace ns3

// SPDX-License-Identifier: GPL-2.0
/* PLB in the simulator (see plb-link.h). */
#include "plb-link.h"

#include <unordered_map>

namespace ns3
{

bool DccPlbRun::s_enabled = false;
uint64_t DccPlbRun::s_rounds = 0, DccPlbRun::s_congRounds = 0, DccPlbRun::s_repaths = 0,
         DccPlbRun::s_paused = 0, DccPlbRun::s_held = 0;
std::mt19937 DccPlbRun::s_rng;

/* HZ of the jiffies the core counts in: the simulator's are milliseconds. */
#define DCC_SIM_HZ 1000

static std::unordered_map<const TcpSocketState*, uint32_t> g_labels;

uint32_t
DccPlbLabel(const TcpSocketState* tcb)
{
    auto it = g_labels.find(tcb);
    return it == g_labels.end() ? 0 : it->second;
}

/* tcp_plb.c's defaults (its DCC_PARAM_UINT lines); enabled is the run's. */
void
DccPlbLink::Conf(struct dcc_plb_conf* c)
{
    c->enabled = DccPlbRun::s_enabled;
    c->idle_rehash_rounds = PLB_DEF_idle_rehash_rounds;
    c->rehash_rounds = PLB_DEF_rehash_rounds;
    c->suspend_rto_sec = PLB_DEF_suspend_rto_sec;
    c->cong_thresh = PLB_DEF_cong_thresh;
}

void
DccPlbLink::Init(Ptr<TcpSocketState> tcb)
{
    dcc_plb_state_init(&m_st, 0, 0);
    g_labels[PeekPointer(tcb)] = 0;
}

void
DccPlbLink::Ack(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection& rc,
                const TcpRateOps::TcpRateSample& rs, uint32_t srttUs, bool hasSample,
                bool above,
                uint32_t delayUs, uint32_t refUs)
{
    struct dcc_plb_conf c;
    int ratio;

    if (hasSample)
    {
        dcc_plb_sample(&m_st, above);
        dcc_plb_sample_len(&m_st, delayUs, refUs);
    }
    /* Delivered counts in bytes (ns-3's) rather than packets: the core
     * compares and divides them, so the unit cancels.  No ECN here. */
    if (rs.m_delivered <= 0 ||
        !dcc_plb_round_end(&m_st, rs.m_priorDelivered, (u32)rc.m_delivered, 0, false, false, &ratio))
        return;
    /* dcc_plb_update_state(). */
    if (!DccPlbRun::s_enabled)
        return;
    Conf(&c);
    if (ratio >= 0)
        DccPlbRun::s_rounds++;
    if (dcc_plb_update(&m_st, &c, ratio))
        DccPlbRun::s_congRounds++;
    CheckRehash(tcb, srttUs);
}

/* dcc_plb_check_rehash(). */
void
DccPlbLink::CheckRehash(Ptr<TcpSocketState> tcb, uint32_t srttUs)
{
    struct dcc_plb_conf c;

    if (!DccPlbRun::s_enabled)
        return;
    Conf(&c);
    uint32_t out = (tcb->m_bytesInFlight.Get() + tcb->m_segmentSize - 1) / tcb->m_segmentSize;
    uint32_t& l = g_labels[PeekPointer(tcb)];
    /* plb_depth(): the latest sample is the raw per-ACK one */
    uint32_t depth = dcc_plb_label_depth(srttUs,
                                         (uint32_t)tcb->m_lastRtt.Get().GetMicroSeconds(),
                                         tcb->m_minRtt == Time::Max()
                                             ? ~0u
                                             : (u32)tcb->m_minRtt.GetMicroSeconds());
    switch (dcc_plb_check_path(&m_st, &c, out, Jiffies(), DCC_SIM_HZ, l, depth))
    {
    case DCC_PLB_NONE:
        return;
    case DCC_PLB_PAUSED:
        DccPlbRun::s_paused++;
        return;
    case DCC_PLB_HELD:
        DccPlbRun::s_held++;
        return;
    default:
        break;
    }
    /* sk_rethink_txhash(): a new random hash, unless the path memory
     * sends the connection back to its best label. */
    uint32_t back = dcc_plb_choose(&m_st, l, depth);
    uint32_t n = back;
    while (!n || n == l)
        n = DccPlbRun::s_rng();
    l = n;
    DccPlbRun::s_repaths++;
}

/* dcc_plb_update_state_upon_rto(); timeouts: icsk_retransmits's
 * stand-in, 0 at the first timeout of a run. */
void
DccPlbLink::Rto(uint32_t timeouts)
{
    struct dcc_plb_conf c;

    if (!DccPlbRun::s_enabled)
        return;
    Conf(&c);
    dcc_plb_on_rto(&m_st, &c, Jiffies(), DCC_SIM_HZ, DccPlbRun::s_rng(),
                   timeouts);
}

} // namespace ns3

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PLB in the simulator: include/dcc_plb.h driven as include/dcc_plb_link.h
 * and tcp_plb.c drive it, from a model's ACK, event and timeout hooks.
 * The path is a per-connection label: the driver tags every data segment
 * with its connection's label (DccPlbLabel) and the leaves' flow-hash
 * ECMP hashes it with the 5-tuple, as a switch hashes an IPv6 flow label
 * that tcp_plb's sk_rethink_txhash() changes.  A repath draws a new label.
 */
#ifndef DCC_SIM_PLB_LINK_H
#define DCC_SIM_PLB_LINK_H

#include "ns3/simulator.h"
#include "ns3/tcp-rate-ops.h"
#include "ns3/tcp-socket-state.h"

#include "dcc_sim_defaults.h"

#include <cstdint>
#include <random>

extern "C" {
#include "dcc_plb.h"
}

namespace ns3
{

/* The run's PLB switch and counters (net.dcc_plb.enabled, /proc/net/tcp_plb_stat). */
struct DccPlbRun
{
    static bool s_enabled;
    static uint64_t s_rounds, s_congRounds, s_repaths, s_paused, s_held;
    static std::mt19937 s_rng; /* get_random_u32(), seeded by the driver */
    static void Reset(bool enabled, uint32_t seed)
    {
        s_enabled = enabled;
        s_rounds = s_congRounds = s_repaths = s_paused = s_held = 0;
        s_rng.seed(seed);
    }
};

/* The label a connection's data segments carry (its txhash). */
uint32_t DccPlbLabel(const TcpSocketState* tcb);

class DccPlbLink
{
  public:
    /* dcc_plb_link_init(). */
    void Init(Ptr<TcpSocketState> tcb);
    /* dcc_plb_link_ack(): the ACK's delay sample (delayUs, judged against
     * refUs), and at a round's end update_state() and check_rehash();
     * srttUs is the model's tp->srtt_us (TcpDccBase::SrttUs()), which
     * the path memory's depth reads. */
    void Ack(Ptr<TcpSocketState> tcb, const TcpRateOps::TcpRateConnection& rc,
             const TcpRateOps::TcpRateSample& rs, uint32_t srttUs, bool hasSample,
             bool above, uint32_t delayUs = 0, uint32_t refUs = 0);
    /* dcc_plb_link_event(CA_EVENT_TX_START). */
    void TxStart(Ptr<TcpSocketState> tcb, uint32_t srttUs) { CheckRehash(tcb, srttUs); }
    /* dcc_plb_link_event(CA_EVENT_LOSS): a retransmit timeout. */
    void Rto(uint32_t timeouts);

  private:
    void CheckRehash(Ptr<TcpSocketState> tcb, uint32_t srttUs);
    static void Conf(struct dcc_plb_conf* c);
    static uint32_t Jiffies() { return (uint32_t)Simulator::Now().GetMilliSeconds(); }
    struct dcc_plb_state m_st {};
};

} // namespace ns3

#endif

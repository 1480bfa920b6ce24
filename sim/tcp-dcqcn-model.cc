// SPDX-License-Identifier: GPL-2.0
/*
 * DCQCN over TCP in ns-3: include/dcc_dcqcn.h driven as tcp_dcqcn.c drives
 * it: the reaction point (rate, alpha, timer and byte-counter increase)
 * on the sender, the notification point (one notification per
 * cnp_interval) on the receiver, ECE as the CNP.
 *
 * Differences from the kernel glue, all on the socket side:
 *  - the receiver's notification point holds ECE up through ns-3's ECN
 *    state (ECN_CE_RCVD) instead of TCP_ECN_DEMAND_CWR, and does not send
 *    the kernel's separating ACK (DCQCN_NP_SEPARATE);
 *  - the sender reads the ACK's ECE flag from the socket's "Rx" trace,
 *    which fires just before the socket processes that segment
 *    (SegmentReceived(), connected by the driver): ns-3's sender-side ECN
 *    state (RFC 3168, ECE_RCVD until CWR) does not follow ECE per ACK;
 *  - the receiver's RTT estimate for the interval is the sender-side
 *    srtt of that socket (0 on a pure receiver: cnp_interval_us then).
 */
#include "dcc-models.h"

#include "ns3/tcp-header.h"

#include "dcc_sim_defaults.h"

#include <algorithm>

extern "C" {
#include "dcc_dcqcn.h"
#include "dcc_linerate.h"
#include "dcc_pacing.h"
}

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(TcpDcqcnModel);

static struct dcqcn_params g_dcqcn_p;
bool TcpDcqcnModel::s_ackEce = false;

void
TcpDcqcnModel::SegmentReceived(Ptr<const Packet>, const TcpHeader& h, Ptr<const TcpSocketBase>)
{
    s_ackEce = h.GetFlags() & TcpHeader::ECE;
}
static struct dcc_linerate_params g_dcqcn_lrp;

/* dcqcn_params_rebuild() at the module's defaults. */
static void
DcqcnParamsBuild()
{
    u64 line = dcc_mbps_to_bytes_ps(DCQCN_DEF_line_rate_mbps ? DCQCN_DEF_line_rate_mbps
                                                              : DCQCN_LR_INIT_MBPS);
    struct dcc_linerate_params lrp = {};
    struct dcqcn_params p;

    lrp.cap_bytes_ps = dcc_mbps_to_bytes_ps(DCQCN_DEF_line_rate_mbps);
    lrp.init_bytes_ps = line;
    lrp.floor_bytes_ps = (u64)DCQCN_DEF_min_rate_kbps * 1000 / 8;
    lrp.win_us = DCQCN_LR_WIN_US;
    lrp.headroom_pct = DCQCN_LR_HEADROOM_PCT;
    dcqcn_params_default(&p, line);
    p.g_fx = DCQCN_DEF_g_q16;
    p.alpha_period_us = DCQCN_DEF_alpha_period_us;
    p.timer_us = DCQCN_DEF_timer_us;
    p.byte_counter_bytes = DCQCN_DEF_byte_counter_kb * 1024;
    p.fr_events = DCQCN_DEF_fr_events;
    p.cnp_interval_us = DCQCN_DEF_cnp_interval_us;
    p.ai_bytes_ps = (u64)DCQCN_DEF_ai_rate_kbps * 1000 / 8;
    p.hai_bytes_ps = (u64)DCQCN_DEF_hai_rate_kbps * 1000 / 8;
    p.min_rate_bytes_ps = (u64)DCQCN_DEF_min_rate_kbps * 1000 / 8;
    p.ai_ppm = DCQCN_DEF_ai_rate_ppm;
    p.hai_ppm = DCQCN_DEF_hai_rate_ppm;
    g_dcqcn_p = p;
    g_dcqcn_lrp = lrp;
}

struct TcpDcqcnModel::Impl
{
    struct dcqcn_state s;
    struct dcqcn_np np;
    struct dcc_linerate lr;
    uint32_t seg;
};

TypeId
TcpDcqcnModel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::TcpDcqcnModel")
                            .SetParent<TcpDccBase>()
                            .SetGroupName("Internet")
                            .AddConstructor<TcpDcqcnModel>();
    return tid;
}

TcpDcqcnModel::TcpDcqcnModel()
    : m_impl(new Impl{})
{
    static bool built = false;
    if (!built)
    {
        DcqcnParamsBuild();
        built = true;
    }
    dcqcn_np_init(&m_impl->np);
}

TcpDcqcnModel::TcpDcqcnModel(const TcpDcqcnModel& o)
    : TcpDccBase(o),
      m_impl(new Impl(*o.m_impl))
{
}

TcpDcqcnModel::~TcpDcqcnModel()
{
    delete m_impl;
}

Ptr<TcpCongestionOps>
TcpDcqcnModel::Fork()
{
    return CopyObject<TcpDcqcnModel>(this);
}

static void
ParamsNow(struct dcqcn_params* p, const struct dcc_linerate* lr, uint32_t srtt, uint32_t mss)
{
    dcqcn_params_for(p, &g_dcqcn_p, dcc_linerate_bytes_ps(lr, &g_dcqcn_lrp), srtt, mss);
}

/* dcqcn_achieved(). */
uint64_t
TcpDcqcnModel::Achieved(Ptr<TcpSocketState> tcb) const
{
    uint32_t rtt = std::max(SrttUs(), m_lastRttUs);
    if (!rtt)
        return 0;
    uint32_t inflight = std::max<uint32_t>(tcb->m_bytesInFlight.Get(), tcb->m_segmentSize);
    return dcc_div_u64((u64)inflight * 1000000ULL, rtt);
}

/* dcqcn_apply(). */
void
TcpDcqcnModel::Apply(Ptr<TcpSocketState> tcb, uint32_t acked)
{
    struct dcqcn_state* s = &m_impl->s;
    uint32_t seg = tcb->m_segmentSize;
    uint32_t rtt = std::max(SrttUs(), m_lastRttUs);
    uint32_t w = dcc_window_from_rate(s->rate_c_bytes_ps, rtt, seg, DCQCN_DEF_cwnd_gain_pct,
                                      DCQCN_MIN_CWND, 65535);
    uint32_t cwnd = tcb->GetCwndInSegments();

    w = std::min(w, dcqcn_lw_pkts(s));
    if (tcb->m_congState == TcpSocketState::CA_RECOVERY)
        cwnd = std::min(w, tcb->m_bytesInFlight.Get() / seg + acked);
    else
        cwnd = std::min(w, cwnd + acked);
    tcb->m_cWnd = std::max(cwnd, 1U) * seg;
    SetPacing(tcb, s->rate_c_bytes_ps);
}

void
TcpDcqcnModel::Init(Ptr<TcpSocketState> tcb)
{
    struct dcqcn_params p;

    /* TCP_CONG_NEEDS_ECN: ECN negotiated by every connection, and its
     * SYNs and pure ACKs sent ECT as Linux sends them for such a cc
     * (tcp_ecn_send_syn(), tcp_ecn_send()).  ns-3's RFC 3168 mode sends
     * them non-ECT, and RED drops them where it marks data; its RFC 8257
     * mode (DctcpEcn) sends them ECT.  The ECE echo stays the model's
     * own (CwndEvent). */
    tcb->m_useEcn = TcpSocketState::On;
    tcb->m_ecnMode = TcpSocketState::DctcpEcn;
    dcc_linerate_init(&m_impl->lr);
    ParamsNow(&p, &m_impl->lr, SrttUs(), tcb->m_segmentSize);
    dcqcn_state_init(&m_impl->s, &p, p.max_rate_bytes_ps, NowUs());
    Apply(tcb, 0);
}

/* dcqcn_catch_up(). */
void
TcpDcqcnModel::CatchUp(Ptr<TcpSocketState> tcb, uint32_t bytes)
{
    struct dcqcn_events ev = {};
    struct dcqcn_params p;

    uint64_t oldC = m_impl->s.rate_c_bytes_ps;
    uint64_t oldT = m_impl->s.rate_t_bytes_ps;

    ParamsNow(&p, &m_impl->lr, SrttUs(), tcb->m_segmentSize);
    if (tcb->m_congState >= TcpSocketState::CA_RECOVERY) {
        dcqcn_hold(&m_impl->s, &p, NowUs(), &ev);
    } else {
        dcqcn_on_bytes(&m_impl->s, &p, bytes, NowUs(), &ev);
        dcqcn_validate(&m_impl->s, &p, oldC, oldT, Achieved(tcb));
    }
}

void
TcpDcqcnModel::CongControl(Ptr<TcpSocketState> tcb,
                           const TcpRateOps::TcpRateConnection& rc [[maybe_unused]],
                           const TcpRateOps::TcpRateSample& rs)
{
    struct dcqcn_state* s = &m_impl->s;
    uint32_t seg = tcb->m_segmentSize;
    uint32_t bytes = rs.m_ackedSacked;
    uint32_t acked = bytes / seg;

    RttSample((uint32_t)tcb->m_lastRtt.Get().GetMicroSeconds());
    uint32_t rateUs = RateIntervalUs(tcb, rs);
    if (rateUs)
        dcc_linerate_sample(&m_impl->lr, &g_dcqcn_lrp, (u32)NowUs(), (u64)rs.m_delivered, rateUs,
                            rs.m_isAppLimited);
    /* dcqcn_in_ack_event(): a fresh ECE level is one notification. */
    bool ece = s_ackEce;
    if (dcqcn_rp_echo(&s->echo, ece))
    {
        struct dcqcn_events ev = {};
        struct dcqcn_params p;

        CatchUp(tcb, 0);
        ParamsNow(&p, &m_impl->lr, SrttUs(), seg);
        dcqcn_lw_notify(s, tcb->m_bytesInFlight.Get() / seg, s->alpha_fx);
        dcqcn_settle(s, &p, Achieved(tcb));
        dcqcn_on_cnp(s, &p, NowUs(), &ev);
    }
    /* tcp_is_cwnd_limited(): the flight before this ACK filled the window. */
    if (acked && tcb->m_congState < TcpSocketState::CA_RECOVERY &&
        tcb->m_bytesInFlight.Get() / seg + acked >= tcb->GetCwndInSegments())
        dcqcn_lw_ack(s, acked);
    CatchUp(tcb, bytes);
    Apply(tcb, acked);
}

/* dcqcn_loss(). */
void
TcpDcqcnModel::Loss(Ptr<TcpSocketState> tcb)
{
    struct dcqcn_events ev = {};
    struct dcqcn_params p;

    CatchUp(tcb, 0);
    ParamsNow(&p, &m_impl->lr, SrttUs(), tcb->m_segmentSize);
    dcqcn_settle(&m_impl->s, &p, Achieved(tcb));
    dcqcn_loss_cut(&m_impl->s, &p, NowUs(), &ev);
    dcqcn_lw_cut(&m_impl->s, tcb->m_bytesInFlight.Get() / tcb->m_segmentSize);
    SetPacing(tcb, m_impl->s.rate_c_bytes_ps);
}

void
TcpDcqcnModel::CwndEvent(Ptr<TcpSocketState> tcb, const TcpSocketState::TcpCAEvent_t ev)
{
    switch (ev)
    {
    case TcpSocketState::CA_EVENT_ECN_IS_CE:
    case TcpSocketState::CA_EVENT_ECN_NO_CE: {
        /* dcqcn_np_event(), on the receiving socket. */
        uint32_t interval = std::max<uint32_t>(DCQCN_DEF_cnp_interval_us, SrttUs());
        uint32_t r = dcqcn_np_packet(&m_impl->np, interval, ev == TcpSocketState::CA_EVENT_ECN_IS_CE,
                                     NowUs(), false, true);
        if ((r & DCQCN_NP_SEPARATE) && !tcb->m_sendEmptyPacketCallback.IsNull())
        {
            /* ECE down on an ACK of its own first, so that the next ECE
             * is a fresh level: one notification (the kernel's
             * separating ACK). */
            tcb->m_ecnState = TcpSocketState::ECN_IDLE;
            tcb->m_sendEmptyPacketCallback(TcpHeader::ACK);
        }
        tcb->m_ecnState = m_impl->np.ece ? TcpSocketState::ECN_CE_RCVD : TcpSocketState::ECN_IDLE;
        break;
    }
    case TcpSocketState::CA_EVENT_LOSS:
        Loss(tcb);
        break;
    case TcpSocketState::CA_EVENT_TX_START:
        CatchUp(tcb, 0);
        Apply(tcb, 0);
        break;
    default:
        break;
    }
}

void
TcpDcqcnModel::CongestionStateSet(Ptr<TcpSocketState> tcb,
                                  const TcpSocketState::TcpCongState_t newState)
{
    if (newState == TcpSocketState::CA_RECOVERY && tcb->m_congState < TcpSocketState::CA_RECOVERY)
        Loss(tcb);
}

uint32_t
TcpDcqcnModel::GetSsThresh(Ptr<const TcpSocketState> tcb, uint32_t bytesInFlight [[maybe_unused]])
{
    /* The window follows the rate (Apply); ECE's CWR must not halve it. */
    return std::max(tcb->GetCwndInSegments(), 2U) * tcb->m_segmentSize;
}

} // namespace ns3

// SPDX-License-Identifier: GPL-2.0
/*
 * dccsim: one scenario, every congestion control named, one table.
 * Each cc runs the same topology, workload and seed in a fresh simulator.
 * See Documentation/simulation.rst.
 */
#include "dcc-models.h"
#include "plb-link.h"

#include "dcc_sim_defaults.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-apps-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace ns3;

/* A connection's PLB label on each of its data segments (its txhash, the
 * IPv6 flow label a switch hashes). */
class FlowLabelTag : public Tag
{
  public:
    uint32_t label = 0;
    static TypeId GetTypeId()
    {
        static TypeId tid =
            TypeId("dccsim::FlowLabelTag").SetParent<Tag>().AddConstructor<FlowLabelTag>();
        return tid;
    }
    TypeId GetInstanceTypeId() const override { return GetTypeId(); }
    uint32_t GetSerializedSize() const override { return 4; }
    void Serialize(TagBuffer i) const override { i.WriteU32(label); }
    void Deserialize(TagBuffer i) override { label = i.ReadU32(); }
    void Print(std::ostream& os) const override { os << "label=" << label; }
};

/* The socket's TcpSocketState (protected in TcpSocketBase). */
struct TcbOf : public TcpSocketBase
{
    static const TcpSocketState* Get(const TcpSocketBase* s)
    {
        return PeekPointer(s->*(&TcbOf::m_tcb));
    }
};

static uint64_t g_labelled;
/* Every sender's "Tx" trace: tag the segment with its connection's label. */
static void TagTx(Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase> sock)
{
    uint32_t l = DccPlbLabel(TcbOf::Get(PeekPointer(sock)));
    if (!l)
        return;
    FlowLabelTag t;
    t.label = l;
    const_cast<Packet*>(PeekPointer(p))->ReplacePacketTag(t); /* a fresh segment */
    g_labelled++;
}

/*
 * Flow-hash ECMP on a leaf: a packet for another leaf goes up the spine
 * a hash of its 5-tuple picks (every packet of a connection on one path,
 * as a switch's ECMP does; ns-3's own RandomEcmpRouting picks per
 * packet).  Everything else falls through to global routing.  Added to a
 * leaf's list routing above global routing.
 */
class FlowHashEcmp : public Ipv4RoutingProtocol
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("dccsim::FlowHashEcmp").SetParent<Ipv4RoutingProtocol>();
        return tid;
    }
    struct Up
    {
        uint32_t ifIndex;
        Ipv4Address nextHop;
    };
    std::vector<Up> ups;
    std::vector<Ipv4Address> local; /* hosts on this leaf */
    uint32_t salt = 0;
    static uint64_t s_routed;

    bool RouteInput(Ptr<const Packet> p, const Ipv4Header& h, Ptr<const NetDevice>,
                    UnicastForwardCallback ucb, MulticastForwardCallback, LocalDeliverCallback,
                    ErrorCallback) override
    {
        Ipv4Address dst = h.GetDestination();
        if (ups.empty() || std::find(local.begin(), local.end(), dst) != local.end())
            return false;
        for (uint32_t i = 0; i < m_ipv4->GetNInterfaces(); i++)
            for (uint32_t a = 0; a < m_ipv4->GetNAddresses(i); a++)
                if (m_ipv4->GetAddress(i, a).GetLocal() == dst)
                    return false;
        uint8_t ports[4] = {0, 0, 0, 0};
        if (p->GetSize() >= 4)
            p->CopyData(ports, 4);
        FlowLabelTag lt;
        uint64_t label = p->PeekPacketTag(lt) ? lt.label : 0;
        uint64_t x = ((uint64_t)h.GetSource().Get() << 32 | dst.Get()) ^
                     ((uint64_t)h.GetProtocol() << 56) ^
                     ((uint64_t)ports[0] << 24 | ports[1] << 16 | ports[2] << 8 | ports[3]) ^ salt ^
                     (label * 0x9e3779b97f4a7c15ULL);
        x ^= x >> 33;
        x *= 0xff51afd7ed558ccdULL;
        x ^= x >> 33;
        const Up& u = ups[x % ups.size()];
        Ptr<Ipv4Route> r = Create<Ipv4Route>();
        r->SetDestination(dst);
        r->SetGateway(u.nextHop);
        r->SetSource(m_ipv4->GetAddress(u.ifIndex, 0).GetLocal());
        r->SetOutputDevice(m_ipv4->GetNetDevice(u.ifIndex));
        s_routed++;
        ucb(r, p, h);
        return true;
    }
    Ptr<Ipv4Route> RouteOutput(Ptr<Packet>, const Ipv4Header&, Ptr<NetDevice>,
                               Socket::SocketErrno& err) override
    {
        err = Socket::ERROR_NOROUTETOHOST;
        return nullptr;
    }
    void NotifyInterfaceUp(uint32_t) override {}
    void NotifyInterfaceDown(uint32_t) override {}
    void NotifyAddAddress(uint32_t, Ipv4InterfaceAddress) override {}
    void NotifyRemoveAddress(uint32_t, Ipv4InterfaceAddress) override {}
    void SetIpv4(Ptr<Ipv4> ipv4) override { m_ipv4 = ipv4; }
    void PrintRoutingTable(Ptr<OutputStreamWrapper>, Time::Unit) const override {}

  private:
    Ptr<Ipv4> m_ipv4;
};

uint64_t FlowHashEcmp::s_routed = 0;

struct Opts
{
    std::vector<std::string> ccs;
    std::string topo = "dumbbell";
    std::string workload = "bulk";
    uint32_t hosts = 8;       /* senders */
    double rateGbps = 10;     /* every link */
    uint32_t delayUs = 2;     /* every link, one way */
    uint32_t bufferPkts = 600; /* per switch port */
    uint32_t ecnK = 65;       /* step marking threshold, packets */
    double durationMs = 50;   /* bulk: simulated time */
    uint32_t incastKb = 64;   /* incast: bytes per sender, KB */
    uint32_t leaves = 2, spines = 2;
    std::string ecmp = "flowhash";
    std::string aqm = "auto";  /* auto: step marking for ECN ccs; fifo: never marks */
    double accessGbps = 0;     /* bed: the client's link (0: 10 Gbit/s) */
    double pingHz = 0;         /* >0: RTT columns from pings, sender 0 -> its receiver */
    uint32_t seed = 1;
    bool quiet = false;
    bool plb = false; /* net.dcc_plb.enabled for swift and timely */
};

static const std::map<std::string, std::string> kCc = {
    {"swift", "ns3::TcpSwiftModel"},   {"timely", "ns3::TcpTimelyModel"},
    {"timely-patched", "ns3::TcpTimelyPatchedModel"}, {"dcqcn", "ns3::TcpDcqcnModel"},
    {"dctcp", "ns3::TcpDctcp"},        {"cubic", "ns3::TcpCubic"},
    {"bbr", "ns3::TcpBbr"},
};

static bool UsesEcn(const std::string& cc)
{
    return cc == "dctcp" || cc == "dcqcn";
}

static bool Paced(const std::string& cc)
{
    return cc != "dctcp" && cc != "cubic";
}

[[noreturn]] static void Die(const std::string& msg)
{
    fprintf(stderr, "dccsim: %s\n", msg.c_str());
    exit(2);
}

static double Num(const std::string& k, const std::string& v, double lo, double hi)
{
    char* end;
    double d = strtod(v.c_str(), &end);
    if (v.empty() || *end || !(d >= lo && d <= hi))
    {
        std::ostringstream o;
        o << "--" << k << "=" << v << ": not a number in [" << lo << ", " << hi << "]";
        Die(o.str());
    }
    return d;
}

/* A count: a whole number in [lo, hi]. */
static uint32_t Int(const std::string& k, const std::string& v, double lo, double hi)
{
    double d = Num(k, v, lo, hi);
    if (d != std::floor(d))
    {
        std::ostringstream o;
        o << "--" << k << "=" << v << ": not a whole number in [" << lo << ", " << hi << "]";
        Die(o.str());
    }
    return (uint32_t)d;
}

static Opts Parse(int argc, char** argv)
{
    Opts o;
    std::set<std::string> given;
    std::string ccs = "swift,timely,timely-patched,dcqcn,dctcp,cubic,bbr";
    for (int i = 1; i < argc; i++)
    {
        std::string a = argv[i];
        if (a == "-q")
        {
            o.quiet = true;
            continue;
        }
        size_t eq = a.find('=');
        if (a.rfind("--", 0) != 0 || eq == std::string::npos)
            Die("'" + a + "': expected --key=value (see Documentation/simulation.rst)");
        std::string k = a.substr(2, eq - 2), v = a.substr(eq + 1);
        given.insert(k);
        if (k == "cc")
            ccs = v;
        else if (k == "topo")
            o.topo = v;
        else if (k == "workload")
            o.workload = v;
        else if (k == "hosts")
            o.hosts = Int(k, v, 1, 5000);
        else if (k == "rate")
            o.rateGbps = Num(k, v, 0.001, 400);
        else if (k == "delay")
            o.delayUs = Int(k, v, 0, 100000);
        else if (k == "buffer")
            o.bufferPkts = Int(k, v, 2, 1000000);
        else if (k == "ecn-k")
            o.ecnK = Int(k, v, 1, 1000000);
        else if (k == "duration")
            o.durationMs = Num(k, v, 1, 100000);
        else if (k == "incast-kb")
            o.incastKb = Int(k, v, 1, 1000000);
        else if (k == "leaves")
            o.leaves = Int(k, v, 2, 64);
        else if (k == "spines")
            o.spines = Int(k, v, 1, 64);
        else if (k == "ecmp")
            o.ecmp = v;
        else if (k == "plb")
        {
            if (v != "on" && v != "off")
                Die("--plb=" + v + ": on or off");
            o.plb = v == "on";
        }
        else if (k == "aqm")
            o.aqm = v;
        else if (k == "ping-hz")
            o.pingHz = Num(k, v, 0, 10000);
        else if (k == "access-rate")
            o.accessGbps = Num(k, v, 0.001, 400);
        else if (k == "seed")
            o.seed = Int(k, v, 1, 1e9);
        else
            Die("unknown option --" + k);
    }
    std::stringstream ss(ccs);
    std::string c;
    while (std::getline(ss, c, ','))
    {
        if (!kCc.count(c))
            Die("unknown cc '" + c + "' (swift, timely, timely-patched, dcqcn, dctcp, cubic, bbr)");
        o.ccs.push_back(c);
    }
    if (o.ccs.empty())
        Die("--cc: empty list");
    if (o.topo != "dumbbell" && o.topo != "leafspine" && o.topo != "bed")
        Die("unknown topology '" + o.topo + "' (dumbbell, leafspine, bed)");
    if (o.aqm != "auto" && o.aqm != "fifo")
        Die("unknown aqm '" + o.aqm + "' (auto, fifo)");
    if (o.workload != "bulk" && o.workload != "incast")
        Die("unknown workload '" + o.workload + "' (bulk, incast)");
    if (o.ecmp != "flowhash" && o.ecmp != "none")
        Die("unknown ecmp '" + o.ecmp + "' (flowhash, none)");
    /* An option the topology or workload does not use is a mistake. */
    for (const char* k : {"leaves", "spines", "ecmp", "plb"})
        if (given.count(k) && o.topo != "leafspine")
            Die(std::string("--") + k + " applies to --topo=leafspine only");
    if (given.count("access-rate") && o.topo != "bed")
        Die("--access-rate applies to --topo=bed only");
    if (given.count("incast-kb") && o.workload != "incast")
        Die("--incast-kb applies to --workload=incast only");
    if (given.count("duration") && o.workload == "incast")
        Die("--duration applies to --workload=bulk only (an incast runs until done, at most 1 s)");
    if (o.ecnK >= o.bufferPkts)
        Die("--ecn-k must be below --buffer");
    if (o.topo == "leafspine" && o.hosts < o.leaves - 1)
        Die("--hosts must be at least --leaves - 1 on a leaf-spine");
    return o;
}

struct Result
{
    double util = 0, rttP50 = 0, rttP99 = 0, qP50 = 0, qP99 = 0, qMax = 0;
    uint64_t drops = 0, marks = 0;
    double jain = 0, slowest = 0, fctMs = 0, idealMs = 0;
    uint32_t done = 0;
    double wall = 0, evps = 0, cpu = 0;
    uint64_t events = 0;
    uint32_t minCwndMpkt = 0;
    double coreOver = 0; /* share of samples with a core port over target */
    uint64_t repaths = 0;
};

static std::vector<double> g_rtt;
static double g_rttFromS; /* bulk: samples from the end of the warm-up */
static bool g_pingOnly;
static void PingTrace(Time v)
{
    g_rtt.push_back(v.GetMicroSeconds());
}
static void RttTrace(Time, Time v)
{
    if (g_pingOnly)
        return;
    if (Simulator::Now().GetSeconds() >= g_rttFromS)
        g_rtt.push_back(v.GetMicroSeconds());
}

static double Pct(std::vector<double>& v, double p)
{
    if (v.empty())
        return 0;
    size_t i = std::min(v.size() - 1, (size_t)(p / 100.0 * v.size()));
    std::nth_element(v.begin(), v.begin() + i, v.end());
    return v[i];
}

static void Progress(double endS, const std::string& cc)
{
    double now = Simulator::Now().GetSeconds();
    fprintf(stderr, "\r  %-15s %5.1f / %.1f ms simulated", cc.c_str(), now * 1e3, endS * 1e3);
    if (now + endS / 10 < endS)
        Simulator::Schedule(Seconds(endS / 10), &Progress, endS, cc);
}

static Result RunOne(const Opts& o, const std::string& cc)
{
    Result r;
    g_rtt.clear();
    g_labelled = 0;
    DccPlbRun::Reset(o.plb, o.seed);
    RngSeedManager::SetSeed(o.seed);
    RngSeedManager::SetRun(1);
    Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(TypeId::LookupByName(kCc.at(cc))));
    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(1448));
    /* ns-3 takes RTT samples from the timestamp option in whole ms when it
     * is on: off, they come from each segment's send time, in ns. */
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(4 << 20));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10));
    Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(40)));
    /* ns-3's RTT sample is the oldest segment an ACK covers (Linux hands
     * congestion control the newest one, rs->rtt_us): with an ACK every
     * two segments, a paced sender's sample would hold the gap to the
     * next segment.  One ACK per segment makes the two the same. */
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(200)));
    Config::SetDefault("ns3::TcpSocketBase::UseEcn", StringValue(UsesEcn(cc) ? "On" : "Off"));
    Config::SetDefault("ns3::TcpSocketState::EnablePacing", BooleanValue(Paced(cc)));
    Config::SetDefault("ns3::TcpSocketState::MaxPacingRate", DataRateValue(DataRate("400Gbps")));
    /* The raw per-ACK sample in tcb->m_lastRtt, as rs->rtt_us. */
    Config::SetDefault("ns3::RttMeanDeviation::Alpha", DoubleValue(1.0));

    std::ostringstream rate;
    rate << o.rateGbps << "Gbps";
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", StringValue(rate.str()));
    p2p.SetChannelAttribute("Delay", TimeValue(MicroSeconds(o.delayUs)));
    p2p.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));

    TrafficControlHelper tc;
    std::ostringstream buf;
    buf << o.bufferPkts << "p";
    if (UsesEcn(cc) && o.aqm == "auto")
    {
        /* Step marking at K on the instantaneous queue (DCTCP's switch). */
        tc.SetRootQueueDisc("ns3::RedQueueDisc", "MaxSize", StringValue(buf.str()), "UseEcn",
                            BooleanValue(true), "UseHardDrop", BooleanValue(false), "MinTh",
                            DoubleValue(o.ecnK), "MaxTh", DoubleValue(o.ecnK + 1), "QW",
                            DoubleValue(1.0), "LInterm", DoubleValue(1.0), "MeanPktSize",
                            UintegerValue(1500));
    }
    else
    {
        tc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue(buf.str()));
    }

    /* Hosts: Linux's default 1000-packet FIFO, no ECN marking there. */
    TrafficControlHelper hostTc;
    hostTc.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", StringValue("1000p"));

    NodeContainer senders, receivers, switches;
    std::vector<std::pair<Ptr<Node>, Ptr<Node>>> links; /* switch-side first when a switch */
    std::vector<bool> isSwitchSide;
    bool bed = o.topo == "bed";
    uint32_t nRecv = o.workload == "incast" || bed ? 1 : o.hosts;
    senders.Create(bed ? 1 : o.hosts);
    receivers.Create(nRecv);
    /* The flow's sender and receiver nodes. */
    auto snd = [&](uint32_t i) { return senders.Get(bed ? 0 : i); };
    auto rcv = [&](uint32_t i) { return o.workload == "incast" || bed ? 0 : i; };
    if (bed)
    {
        /* make bench's dumbbell (selftests/lib.sh topo_dumbbell): one
         * client, a router, one server; every flow from the client.  The
         * client's link (a veth in the VM) at --access-rate, no delay;
         * the router's port to the server is the bottleneck, and that
         * link carries the delay (--delay each way: the VM's 250 us of
         * netem on the ACK path is --delay=125). */
        switches.Create(1);
        links.push_back({switches.Get(0), senders.Get(0)});
        links.push_back({switches.Get(0), receivers.Get(0)});
    }
    else if (o.topo == "dumbbell")
    {
        switches.Create(2);
        for (uint32_t i = 0; i < o.hosts; i++)
            links.push_back({switches.Get(0), senders.Get(i)});
        links.push_back({switches.Get(0), switches.Get(1)});
        for (uint32_t i = 0; i < nRecv; i++)
            links.push_back({switches.Get(1), receivers.Get(i)});
    }
    else
    {
        /* Senders spread over leaves 0..L-2, receivers on the last leaf. */
        switches.Create(o.leaves + o.spines);
        for (uint32_t l = 0; l < o.leaves; l++)
            for (uint32_t s = 0; s < o.spines; s++)
                links.push_back({switches.Get(l), switches.Get(o.leaves + s)});
        for (uint32_t i = 0; i < o.hosts; i++)
            links.push_back({switches.Get(i % (o.leaves - 1)), senders.Get(i)});
        for (uint32_t i = 0; i < nRecv; i++)
            links.push_back({switches.Get(o.leaves - 1), receivers.Get(i)});
    }
    InternetStackHelper stack;
    stack.InstallAll();
    Ipv4AddressHelper addr;
    addr.SetBase("10.0.0.0", "255.255.255.252");
    std::vector<Ptr<QueueDisc>> swq;
    std::vector<bool> core; /* swq[i] is a leaf-spine port */
    std::vector<Ipv4Address> recvAddr(nRecv);
    std::map<Ptr<Node>, std::vector<FlowHashEcmp::Up>> leafUps;
    std::map<Ptr<Node>, std::vector<Ipv4Address>> leafHosts;
    auto isSpine = [&](Ptr<Node> n) {
        for (uint32_t s = o.leaves; o.topo == "leafspine" && s < switches.GetN(); s++)
            if (n == switches.Get(s))
                return true;
        return false;
    };
    PointToPointHelper access;
    {
        std::ostringstream ar;
        ar << (o.accessGbps > 0 ? o.accessGbps : 10) << "Gbps";
        access.SetDeviceAttribute("DataRate", StringValue(ar.str()));
        access.SetChannelAttribute("Delay", TimeValue(MicroSeconds(0)));
        access.SetQueue("ns3::DropTailQueue", "MaxSize", StringValue("1p"));
    }
    for (auto& l : links)
    {
        NetDeviceContainer d = bed && l.second == senders.Get(0) ? access.Install(l.first, l.second)
                                                                 : p2p.Install(l.first, l.second);
        bool bothSwitch = false;
        for (uint32_t s = 0; s < switches.GetN(); s++)
            if (l.second == switches.Get(s))
                bothSwitch = true;
        swq.push_back(tc.Install(d.Get(0)).Get(0)); /* the switch's egress */
        core.push_back(bothSwitch && o.topo == "leafspine");
        if (bothSwitch)
        {
            swq.push_back(tc.Install(d.Get(1)).Get(0));
            core.push_back(o.topo == "leafspine");
        }
        else
            hostTc.Install(d.Get(1)); /* a host's NIC: never marks */
        Ipv4InterfaceContainer ifc = addr.Assign(d);
        addr.NewNetwork();
        if (o.topo == "leafspine" && isSpine(l.second))
            leafUps[l.first].push_back(
                {(uint32_t)l.first->GetObject<Ipv4>()->GetInterfaceForDevice(d.Get(0)),
                 ifc.GetAddress(1)});
        else if (o.topo == "leafspine" && !bothSwitch)
            leafHosts[l.first].push_back(ifc.GetAddress(1));
        for (uint32_t i = 0; i < nRecv; i++)
            if (l.second == receivers.Get(i))
                recvAddr[i] = ifc.GetAddress(1);
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();
    FlowHashEcmp::s_routed = 0;
    if (o.topo == "leafspine" && o.ecmp == "flowhash")
        for (auto& [leaf, ups] : leafUps)
        {
            Ptr<FlowHashEcmp> e = CreateObject<FlowHashEcmp>();
            e->ups = ups;
            e->local = leafHosts[leaf];
            e->salt = o.seed;
            DynamicCast<Ipv4ListRouting>(leaf->GetObject<Ipv4>()->GetRoutingProtocol())
                ->AddRoutingProtocol(e, 10);
        }

    std::vector<uint64_t> drops(1, 0), marks(1, 0);
    for (auto& q : swq)
    {
        q->TraceConnectWithoutContext("Drop", MakeBoundCallback(
                                                  +[](uint64_t* c, Ptr<const QueueDiscItem>) { (*c)++; },
                                                  &drops[0]));
        q->TraceConnectWithoutContext(
            "Mark", MakeBoundCallback(+[](uint64_t* c, Ptr<const QueueDiscItem>, const char*) { (*c)++; },
                                      &marks[0]));
    }

    bool incast = o.workload == "incast";
    double endS = incast ? 1.0 : o.durationMs / 1e3;
    double warm = incast ? 0 : endS / 5;
    g_rttFromS = warm;
    g_pingOnly = o.pingHz > 0;
    if (o.pingHz > 0)
    {
        /* ping_rtts in the VM: 56-byte ICMP echo through the same queues,
         * from the end of the warm-up to the end of the run. */
        V4PingHelper ph(recvAddr[0]);
        ph.SetAttribute("Interval", TimeValue(Seconds(1.0 / o.pingHz)));
        ApplicationContainer pa = ph.Install(snd(0));
        pa.Start(Seconds(warm));
        pa.Stop(Seconds(endS));
        pa.Get(0)->TraceConnectWithoutContext("Rtt", MakeCallback(&PingTrace));
    }
    std::vector<Ptr<PacketSink>> sinks;
    uint16_t port = 5000;
    for (uint32_t i = 0; i < o.hosts; i++)
    {
        uint32_t ri = rcv(i);
        PacketSinkHelper sh("ns3::TcpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port + i));
        ApplicationContainer sa = sh.Install(receivers.Get(ri));
        sa.Start(Seconds(0));
        sinks.push_back(DynamicCast<PacketSink>(sa.Get(0)));
        BulkSendHelper bh("ns3::TcpSocketFactory", InetSocketAddress(recvAddr[ri], port + i));
        bh.SetAttribute("MaxBytes", UintegerValue(incast ? (uint64_t)o.incastKb * 1024 : 0));
        bh.SetAttribute("SendSize", UintegerValue(64 * 1024));
        ApplicationContainer ba = bh.Install(snd(i));
        ba.Start(MicroSeconds(incast ? 10 : 10 + i));
        std::ostringstream path;
        path << "/NodeList/" << snd(i)->GetId() << "/$ns3::TcpL4Protocol/SocketList/*/RTT";
        std::string ps = path.str();
        bool dcqcn = cc == "dcqcn";
        /* bed: every flow on one node, whose socket list is connected
         * once, when all of them exist (again would count twice). */
        if (bed && i + 1 < o.hosts)
            continue;
        bool plb = o.plb && o.topo == "leafspine";
        Simulator::Schedule(MicroSeconds(incast ? 11 : 11 + i), [ps, dcqcn, plb]() {
            Config::ConnectWithoutContextFailSafe(ps, MakeCallback(&RttTrace));
            if (plb)
                Config::ConnectWithoutContextFailSafe(ps.substr(0, ps.size() - 3) + "Tx",
                                                      MakeCallback(&TagTx));
            if (dcqcn)
                Config::ConnectWithoutContextFailSafe(
                    ps.substr(0, ps.size() - 3) + "Rx", MakeCallback(&TcpDcqcnModel::SegmentReceived));
        });
    }

    /* Queue samples every 2 us at every switch port; the busiest port's. */
    std::vector<std::vector<double>> qs(swq.size());
    /* Core ports over target: Swift's base target at line rate. */
    double overBytes = SWIFT_DEF_base_target_us * 1e-6 * o.rateGbps * 1e9 / 8;
    uint64_t coreSamples = 0, coreOver = 0;
    std::function<void()> sample = [&]() {
        if (Simulator::Now().GetSeconds() >= warm)
        {
            bool over = false;
            for (size_t i = 0; i < swq.size(); i++)
            {
                qs[i].push_back(swq[i]->GetNBytes());
                over = over || (core[i] && swq[i]->GetNBytes() > overBytes);
            }
            coreSamples++;
            coreOver += over;
        }
        Simulator::Schedule(MicroSeconds(2), sample);
    };
    Simulator::Schedule(MicroSeconds(2), sample);

    /* Incast: completion times from the sinks. */
    std::vector<double> fct(o.hosts, 0);
    uint64_t want = (uint64_t)o.incastKb * 1024;
    std::vector<uint64_t> rxAtWarm(o.hosts, 0);
    std::function<void()> poll = [&]() {
        bool all = true;
        for (uint32_t i = 0; i < o.hosts; i++)
        {
            if (!fct[i] && sinks[i]->GetTotalRx() >= want)
                fct[i] = Simulator::Now().GetSeconds() - 10e-6;
            all = all && fct[i];
        }
        if (all)
            Simulator::Stop();
        else
            Simulator::Schedule(MicroSeconds(5), poll);
    };
    if (incast)
        Simulator::Schedule(MicroSeconds(5), poll);
    else
        Simulator::Schedule(Seconds(warm), [&]() {
            for (uint32_t i = 0; i < o.hosts; i++)
                rxAtWarm[i] = sinks[i]->GetTotalRx();
        });
    if (!o.quiet && isatty(2))
        Simulator::Schedule(Seconds(0), &Progress, endS, cc);

    Simulator::Stop(Seconds(endS));
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    uint64_t ev0 = Simulator::GetEventCount();
    Simulator::Run();
    r.events = Simulator::GetEventCount() - ev0;
    r.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.cpu = (double)(std::clock() - c0) / CLOCKS_PER_SEC;
    r.evps = r.events / std::max(r.cpu, 1e-9); /* per CPU second: the machine may be shared */
    double simEnd = Simulator::Now().GetSeconds();
    if (!o.quiet && isatty(2))
        fprintf(stderr, "\r%60s\r", "");

    double lineBps = o.rateGbps * 1e9;
    std::vector<double> tput;
    if (incast)
    {
        double last = 0;
        for (uint32_t i = 0; i < o.hosts; i++)
        {
            r.done += fct[i] > 0;
            last = std::max(last, fct[i] > 0 ? fct[i] : simEnd);
            tput.push_back(want * 8.0 / std::max(fct[i] > 0 ? fct[i] : simEnd, 1e-9));
        }
        r.fctMs = last * 1e3;
        r.idealMs = want * 8.0 * o.hosts / lineBps * 1e3;
        r.util = want * 8.0 * r.done / lineBps / std::max(last, 1e-9);
    }
    else
    {
        double total = 0;
        for (uint32_t i = 0; i < o.hosts; i++)
        {
            double b = (sinks[i]->GetTotalRx() - rxAtWarm[i]) * 8.0 / (simEnd - warm);
            tput.push_back(b);
            total += b;
        }
        /* The bottleneck carries all flows (dumbbell L-R, the last leaf's
         * downlinks on a leaf-spine: their sum is hosts x rate there). */
        double cap = o.topo != "leafspine" ? lineBps : lineBps * std::min<uint32_t>(nRecv, o.spines);
        r.util = total / cap;
    }
    double s = 0, s2 = 0, mn = 1e300;
    for (double t : tput)
    {
        s += t;
        s2 += t * t;
        mn = std::min(mn, t);
    }
    r.jain = s2 > 0 ? s * s / (tput.size() * s2) : 0;
    r.slowest = s > 0 ? mn / (s / tput.size()) : 0;
    r.rttP50 = Pct(g_rtt, 50);
    r.rttP99 = Pct(g_rtt, 99);
    size_t busiest = 0;
    double best = -1;
    for (size_t i = 0; i < qs.size(); i++)
    {
        double p = Pct(qs[i], 99);
        if (p > best)
        {
            best = p;
            busiest = i;
        }
    }
    double usPerByte = 8.0 / lineBps * 1e6;
    if (!qs.empty() && !qs[busiest].empty())
    {
        r.qP50 = Pct(qs[busiest], 50) * usPerByte;
        r.qP99 = Pct(qs[busiest], 99) * usPerByte;
        r.qMax = *std::max_element(qs[busiest].begin(), qs[busiest].end()) * usPerByte;
    }
    r.coreOver = coreSamples ? (double)coreOver / coreSamples : 0;
    r.repaths = DccPlbRun::s_repaths;
    r.drops = drops[0];
    r.marks = marks[0];
    if (cc == "swift")
        r.minCwndMpkt = TcpSwiftModel::MinCwndMpkt();
    Simulator::Destroy();
    return r;
}

int main(int argc, char** argv)
{
    Opts o = Parse(argc, argv);
    bool incast = o.workload == "incast";
    if (o.topo == "leafspine")
        printf("# leaf-spine: %u leaves, %u spines, ECMP %s, PLB %s; core_over: share of time a "
               "leaf-spine port holds over %u us\n",
               o.leaves, o.spines, o.ecmp.c_str(), o.plb ? "on" : "off",
               (unsigned)SWIFT_DEF_base_target_us);
    printf("# %s %s: %u sender(s), %g Gbit/s links, %u us/link, buffer %u pkts, ECN K=%u pkts%s\n",
           o.topo.c_str(), o.workload.c_str(), o.hosts, o.rateGbps, o.delayUs, o.bufferPkts, o.ecnK,
           incast ? "" : "");
    if (incast)
        printf("# incast: %u KB per sender; ideal = all bytes at line rate\n", o.incastKb);
    else
        printf("# bulk: %g ms simulated, first 20%% not measured\n", o.durationMs);
    printf("%-15s %6s %8s %8s %8s %8s %8s %7s %7s %6s %7s", "cc", "util", "rtt_p50", "rtt_p99",
           "q_p50", "q_p99", "q_max", "drops", "marks", "jain", "slowest");
    bool ls = o.topo == "leafspine";
    if (incast)
        printf(" %8s %8s %5s", "fct_ms", "ideal", "done");
    if (ls)
        printf(" %9s %7s", "core_over", "repaths");
    printf(" %7s %7s %9s %9s\n", "wall_s", "cpu_s", "events", "ev/s");
    fflush(stdout);
    for (auto& cc : o.ccs)
    {
        Result r = RunOne(o, cc);
        printf("%-15s %6.3f %8.1f %8.1f %8.1f %8.1f %8.1f %7lu %7lu %6.3f %7.3f", cc.c_str(), r.util,
               r.rttP50, r.rttP99, r.qP50, r.qP99, r.qMax, (unsigned long)r.drops,
               (unsigned long)r.marks, r.jain, r.slowest);
        if (incast)
            printf(" %8.3f %8.3f %2u/%-2u", r.fctMs, r.idealMs, r.done, o.hosts);
        if (ls)
            printf(" %9.3f %7lu", r.coreOver, (unsigned long)r.repaths);
        printf(" %7.2f %7.2f %9lu %9.0f", r.wall, r.cpu, (unsigned long)r.events, r.evps);
        if (cc == "swift")
            printf("  min_cwnd=%.3f", r.minCwndMpkt / 1000.0);
        printf("\n");
        fflush(stdout);
    }
    printf("# rtt in us (%s); q in us of the busiest switch port at line rate\n",
           o.pingHz > 0 ? "56-byte pings from sender 0 after the warm-up" : "per-ACK samples after the warm-up");
    return 0;
}

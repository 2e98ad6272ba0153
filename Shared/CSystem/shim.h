#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

/// prctl is variadic, which Swift cannot call: PR_SET_DUMPABLE 0 stops core dumps and ptrace
/// attachment by other processes of the same user, for processes that hold secrets.
static inline int CSystem_setDumpable(int dumpable) {
    return prctl(PR_SET_DUMPABLE, (unsigned long)dumpable, 0UL, 0UL, 0UL);
}

static inline int CSystem_isDumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL);
}

// epoll_event is packed on x86_64, which Swift does not import faithfully: these wrappers take
// and return a plain struct instead.
typedef struct {
    uint32_t events;
    uint64_t data;
} CSystem_EpollEvent;

static const uint32_t CSystem_epollIn = EPOLLIN;
static const uint32_t CSystem_epollOut = EPOLLOUT;
static const uint32_t CSystem_epollErr = EPOLLERR;
static const uint32_t CSystem_epollHup = EPOLLHUP;
static const uint32_t CSystem_epollRdHup = EPOLLRDHUP;
static const int CSystem_epollAdd = EPOLL_CTL_ADD;
static const int CSystem_epollMod = EPOLL_CTL_MOD;
static const int CSystem_epollDel = EPOLL_CTL_DEL;
enum { CSystem_epollMaxEvents = 128 };

static inline int CSystem_epollCreate(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline int CSystem_epollCtl(int epfd, int op, int fd, uint32_t events, uint64_t data) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = data;
    return epoll_ctl(epfd, op, fd, &event);
}

static inline int CSystem_epollWait(int epfd, CSystem_EpollEvent *out, int max, int timeoutMS) {
    struct epoll_event events[CSystem_epollMaxEvents];
    if (max > CSystem_epollMaxEvents) max = CSystem_epollMaxEvents;
    int count = epoll_wait(epfd, events, max, timeoutMS);
    for (int i = 0; i < count; i++) {
        out[i].events = events[i].events;
        out[i].data = events[i].data.u64;
    }
    return count;
}

static inline int CSystem_eventFD(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// A non-blocking, close-on-exec TCP socket (the flags are an enum in Swift's Glibc).
static inline int CSystem_tcpSocket(int family) {
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, IPPROTO_TCP);
}

static inline int CSystem_accept(int fd) {
    return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

static const int CSystem_sendFlags = MSG_NOSIGNAL;
static const int CSystem_tcpKeepIdle = TCP_KEEPIDLE;
static const int CSystem_tcpKeepInterval = TCP_KEEPINTVL;
static const int CSystem_tcpKeepCount = TCP_KEEPCNT;

/// Names the calling thread (as `top -H` shows it); prctl is variadic.
static inline int CSystem_setThreadName(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}
#endif

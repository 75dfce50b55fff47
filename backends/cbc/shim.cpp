// shim.cpp is the only C++ of schedopt's CBC binding (see doc.go, "What the C
// interface cannot do"). CBC 2.10's C interface has no way to stop a solve and prints
// its log to stdout; Coin_C_defines.h publishes the layout of Cbc_Model for C++
// callers (under CBC_EXTERN_C), so this file reaches the CbcModel and the Clp solver
// behind the handle and installs three small objects:
//
//   - StopCbc, a CbcEventHandler that answers "stop" to every branch-and-cut event
//     but those announcing a solution once the control block's flag is set, and
//     spends the model's time limit for the places that ignore the answer (CbcModel
//     clones it into the model CbcMain1 solves and into the sub-MIPs of heuristics);
//   - StopClp, a ClpEventHandler that ends the simplex at the next iteration when
//     stopLP says so (ClpSimplex clones it into every copy of the LP solver);
//   - LogHandler, a CoinMessageHandler whose print() hands each message to the Go
//     writer (schedoptCbcLog in log.go) or drops it, so that nothing reaches stdout.
//
// It also keeps CBC's and Clp's SIGINT handlers out of the process and catches C++
// exceptions before they reach cgo. Neither event handler calls into Go: they read a
// few ints atomically.

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>

#include "CbcEventHandler.hpp"
#include "CbcModel.hpp"
#include "CbcSolver.hpp"
#include "ClpEventHandler.hpp"
#include "ClpSimplex.hpp"
#include "CoinMessageHandler.hpp"
#include "OsiClpSolverInterface.hpp"

// The real Cbc_Model struct instead of `typedef void Cbc_Model`.
#define CBC_EXTERN_C
#include "Coin_C_defines.h"
#include "Cbc_C_Interface.h"

#include "shim.h"

extern "C" void schedoptCbcLog(uintptr_t handle, char *msg); // log.go

namespace {

bool stopped(const schedopt_cbc_ctl *c)
{
  return __atomic_load_n(&c->stop, __ATOMIC_ACQUIRE) != 0;
}

int64_t nowNs()
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

// stopLP decides whether the Clp event handler cuts the running LP short. Before
// CBC's search has started and before CBC has acknowledged the stop (initial LP,
// preprocessing, the feasibility pump, the root LP): at once. Afterwards CBC stops at
// its next event by itself, and the LPs left are those of the search, whose bounds
// stay valid if they finish, and of the postprocessing that recovers the incumbent:
// they run to the end after a deadline, and for at most the grace period after a
// cancellation.
bool stopLP(schedopt_cbc_ctl *c)
{
  int why = __atomic_load_n(&c->stop, __ATOMIC_ACQUIRE);
  if (why == 0)
    return false;
  bool early = !__atomic_load_n(&c->search_started, __ATOMIC_ACQUIRE) &&
    !__atomic_load_n(&c->acked, __ATOMIC_ACQUIRE);
  if (!early && (why != 1 || nowNs() - c->stop_ns < SCHEDOPT_CBC_LP_GRACE_NS))
    return false;
  __atomic_store_n(&c->lp_stopped, 1, __ATOMIC_RELEASE);
  return true;
}

class StopCbc : public CbcEventHandler {
public:
  explicit StopCbc(schedopt_cbc_ctl *c)
    : CbcEventHandler()
    , ctl_(c)
  {
  }
  StopCbc(const StopCbc &o)
    : CbcEventHandler(o)
    , ctl_(o.ctl_)
  {
  }
  CbcEventHandler *clone() const override { return new StopCbc(*this); }
  CbcAction event(CbcEvent e) override { return act(e); }
  CbcAction event(CbcEvent e, void *) override { return act(e); }
  CbcAction act(CbcEvent e)
  {
    // The top-level model has no parent; the sub-MIPs of heuristics have one.
    bool top = model_ != NULL && model_->parentModel() == NULL;
    if (top && (e == node || e == treeStatus || e == generatedCuts || e == endSearch))
      __atomic_store_n(&ctl_->search_started, 1, __ATOMIC_RELEASE);
    // A solution being found is never refused: the incumbent is what a stopped
    // run returns.
    if (!stopped(ctl_) || e == solution || e == heuristicSolution || e == beforeSolution1 ||
        e == beforeSolution2)
      return noAction;
    if (top)
      __atomic_store_n(&ctl_->acked, 1, __ATOMIC_RELEASE);
    // Not every caller obeys the answer: the root cut loop and some heuristics
    // ignore it but check CBC's own time limit, which sub-MIPs inherit from their
    // parent. Spending that limit makes them stop as on a time limit. This runs on
    // CBC's thread, between CBC's own reads of the value.
    if (model_ != NULL) {
      model_->sayEventHappened();
      model_->setMaximumSeconds(1e-9);
    }
    return stop;
  }

private:
  schedopt_cbc_ctl *ctl_;
};

class StopClp : public ClpEventHandler {
public:
  explicit StopClp(schedopt_cbc_ctl *c)
    : ClpEventHandler()
    , ctl_(c)
  {
  }
  StopClp(const StopClp &o)
    : ClpEventHandler(o)
    , ctl_(o.ctl_)
  {
  }
  ClpEventHandler *clone() const override { return new StopClp(*this); }
  // 0 makes Clp stop with status 5; -1 carries on.
  int event(Event e) override { return e == endOfIteration && stopLP(ctl_) ? 0 : -1; }

private:
  schedopt_cbc_ctl *ctl_;
};

class LogHandler : public CoinMessageHandler {
public:
  explicit LogHandler(uintptr_t log)
    : CoinMessageHandler()
    , log_(log)
  {
  }
  LogHandler(const LogHandler &o)
    : CoinMessageHandler(o)
    , log_(o.log_)
  {
  }
  CoinMessageHandler *clone() const override { return new LogHandler(*this); }
  int print() override
  {
    if (log_ != 0)
      schedoptCbcLog(log_, const_cast< char * >(messageBuffer()));
    return 0;
  }

private:
  uintptr_t log_;
};

} // namespace

extern "C" {

schedopt_cbc_ctl *schedopt_cbc_ctl_new(uintptr_t log)
{
  schedopt_cbc_ctl *c = static_cast< schedopt_cbc_ctl * >(calloc(1, sizeof(schedopt_cbc_ctl)));
  if (c == NULL)
    return NULL;
  c->log = log;
  try {
    c->cbc_log = new LogHandler(log);
    c->lp_log = new LogHandler(log);
  } catch (...) {
    schedopt_cbc_ctl_free(c);
    return NULL;
  }
  return c;
}

// schedopt_cbc_ctl_stop is called once per solve, by the watcher.
void schedopt_cbc_ctl_stop(schedopt_cbc_ctl *c, int why)
{
  if (stopped(c))
    return;
  c->stop_ns = nowNs(); // published by the release below
  int zero = 0;
  __atomic_compare_exchange_n(&c->stop, &zero, why, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

void schedopt_cbc_ctl_free(schedopt_cbc_ctl *c)
{
  if (c == NULL)
    return;
  delete static_cast< LogHandler * >(c->cbc_log);
  delete static_cast< LogHandler * >(c->lp_log);
  free(c);
}

int schedopt_cbc_run(void *model, schedopt_cbc_ctl *c, int presolve_off, char *err, int errlen)
{
  Cbc_Model *m = static_cast< Cbc_Model * >(model);
  // CbcMain1 installs a SIGINT handler with signal() and never removes it, and Clp's
  // initialSolve swaps its own in and out; either would replace the Go runtime's
  // handler (without SA_ONSTACK). CbcMain1's is switched off below; whatever else
  // changes SIGINT is undone after the solve.
  struct sigaction saved;
  bool haveSaved = sigaction(SIGINT, NULL, &saved) == 0;
  int rc = 0;
  try {
    int level = c->log != 0 ? 1 : 0;
    LogHandler *cbcLog = static_cast< LogHandler * >(c->cbc_log);
    LogHandler *lpLog = static_cast< LogHandler * >(c->lp_log);
    cbcLog->setLogLevel(level);
    lpLog->setLogLevel(level);
    m->model_->passInMessageHandler(cbcLog); // also gives it to the solver: replaced next
    m->solver_->passInMessageHandler(lpLog); // OsiClp passes it on to ClpSimplex
    m->cbcData->noPrinting_ = c->log == 0;
    m->cbcData->useSignalHandler_ = false;
    StopCbc stopCbc(c);
    m->model_->passInEventHandler(&stopCbc); // cloned
    StopClp stopClp(c);
    m->solver_->getModelPtr()->passInEventHandler(&stopClp); // cloned
    // Pure LPs go straight to OsiClpSolverInterface::initialSolve: no parameters,
    // so presolve and Clp's interrupt handling are set here.
    ClpSolve opts;
    opts.setSpecialOption(2, 1); // no SIGINT handling ("for threadsafe")
    if (presolve_off) {
      opts.setPresolveType(ClpSolve::presolveOff);
      m->solver_->setHintParam(OsiDoPresolveInInitial, false, OsiHintDo);
      m->solver_->setHintParam(OsiDoPresolveInResolve, false, OsiHintDo);
    }
    m->solver_->setSolveOptions(opts);
    Cbc_solve(m);
  } catch (const CoinError &e) {
    snprintf(err, errlen, "%s::%s: %s", e.className().c_str(), e.methodName().c_str(), e.message().c_str());
    rc = 1;
  } catch (const std::exception &e) {
    snprintf(err, errlen, "%s", e.what());
    rc = 1;
  } catch (...) {
    snprintf(err, errlen, "unknown C++ exception");
    rc = 1;
  }
  if (haveSaved)
    sigaction(SIGINT, &saved, NULL);
  return rc;
}

void schedopt_cbc_lp_status(void *model, int *status, int *primal_feasible)
{
  ClpSimplex *lp = static_cast< Cbc_Model * >(model)->solver_->getModelPtr();
  *status = lp->status();
  *primal_feasible = lp->primalFeasible() ? 1 : 0;
}

} // extern "C"

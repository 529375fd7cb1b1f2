package org.partita.server.database;

import java.lang.invoke.VarHandle;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jctools.queues.MpscArrayQueue;
import org.partita.proto.TableStatsList;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.engine.PartitionEngine;

/**
 * One partition: a thread that owns the partition's engine and runs tasks
 * from its queue one after another to completion. Everything the engine
 * touches happens on this thread.
 *
 * <p>The queue is bounded and lock-free (many producers, this one
 * consumer). {@link #offer} never blocks: a full queue answers false and
 * the producer applies backpressure (the network server pauses reading).
 * {@link #submit} waits for room and is for work that must not be refused
 * (coordinator holds, stop). An idle site spins briefly, then parks; a
 * producer unparks it (see {@link #wake} for why that cannot be missed).
 */
final class Site implements Runnable {
  private static final Logger LOG = Logger.getLogger(Site.class.getName());
  private static final Runnable STOP = () -> { };
  /** Default bound of a site's queue. */
  static final int DEFAULT_QUEUE_CAPACITY = 16 * 1024;
  private static final int IDLE_SPINS = 200;
  private static final long FULL_QUEUE_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
  /** An idle site wakes at least this often to look at its queue (a bound on any missed wake-up). */
  private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

  private final int partition;
  private final int partitionCount;
  private final byte[] initialCatalog;
  private final MpscArrayQueue<Runnable> queue;
  private final CountDownLatch opened = new CountDownLatch(1);
  private final Thread thread;
  private volatile RuntimeException openFailure;
  private volatile boolean parked;
  private final AtomicLong busyNanos = new AtomicLong();
  private final AtomicLong tasksRun = new AtomicLong();
  // Site-confined state.
  private PartitionEngine engine;
  private final Map<CompiledProcedure, ProcedureInstance> instances = new IdentityHashMap<>();
  private SinglePartitionContext context;

  Site(int partition, int partitionCount, byte[] catalog, int queueCapacity) {
    this.partition = partition;
    this.partitionCount = partitionCount;
    this.initialCatalog = catalog;
    this.queue = new MpscArrayQueue<>(queueCapacity);
    this.thread = new Thread(this, "partita-site-" + partition);
  }

  /** Starts the thread and waits until the engine is open. */
  void start() throws InterruptedException {
    thread.start();
    opened.await();
    if (openFailure != null) {
      throw openFailure;
    }
  }

  int partition() {
    return partition;
  }

  int partitionCount() {
    return partitionCount;
  }

  /** Queues {@code task} unless the queue is full. Returns true iff queued. Never blocks. */
  boolean offer(Runnable task) {
    if (!queue.offer(task)) {
      return false;
    }
    wake();
    return true;
  }

  /** Queues {@code task}, waiting for room when the queue is full. */
  void submit(Runnable task) {
    while (!queue.offer(task)) {
      LockSupport.parkNanos(FULL_QUEUE_PARK_NANOS);
    }
    wake();
  }

  /**
   * Unparks the site if it may be parked. The full fence orders the
   * producer's store of the task before its read of {@code parked} (x86
   * lets a load pass an earlier store): without it the site could park
   * having just missed the task while the producer read a stale
   * {@code parked == false}, and the task would wait for the next one.
   */
  private void wake() {
    VarHandle.fullFence();
    if (parked) {
      LockSupport.unpark(thread);
    }
  }

  /** Tasks waiting in the queue (approximate, any thread). */
  int queueDepth() {
    return queue.size();
  }

  int queueCapacity() {
    return queue.capacity();
  }

  /** Nanoseconds this site spent running tasks since it started (any thread). */
  long busyNanos() {
    return busyNanos.get();
  }

  /** Tasks this site has run (any thread). */
  long tasksRun() {
    return tasksRun.get();
  }

  /** REQUIRES: on the site thread. */
  PartitionEngine engine() {
    return engine;
  }

  /** REQUIRES: on the site thread. */
  SinglePartitionContext context() {
    return context;
  }

  /** REQUIRES: on the site thread. */
  ProcedureInstance instance(CompiledProcedure procedure) {
    return instances.computeIfAbsent(procedure, ProcedureInstance::create);
  }

  /** REQUIRES: on the site thread. Forgets procedure instances of an older catalog. */
  void clearInstances() {
    instances.clear();
  }

  /** REQUIRES: on the site thread. Rows and memory of every table of this partition. */
  TableStatsList tableStats() {
    return engine.tableStats();
  }

  /** Stops after the tasks already queued; waits for the thread. */
  void stop() throws InterruptedException {
    submit(STOP);
    thread.join();
  }

  @Override
  public void run() {
    try {
      engine = PartitionEngine.open(initialCatalog, partition, partitionCount);
      context = new SinglePartitionContext(this);
    } catch (RuntimeException e) {
      openFailure = e;
      return;
    } finally {
      opened.countDown();
    }
    try {
      runTasks();
    } finally {
      engine.close();
    }
  }

  /** Runs tasks until STOP; busy time is counted from leaving idle to the queue running dry. */
  private void runTasks() {
    while (true) {
      Runnable task = awaitTask();
      if (task == null) {
        return;
      }
      final long busyStart = System.nanoTime();
      long ran = 0;
      for (; task != null; task = queue.relaxedPoll()) {
        if (task == STOP) {
          busyNanos.addAndGet(System.nanoTime() - busyStart);
          tasksRun.addAndGet(ran);
          return;
        }
        runOne(task);
        ran++;
      }
      busyNanos.addAndGet(System.nanoTime() - busyStart);
      tasksRun.addAndGet(ran);
    }
  }

  private void runOne(Runnable task) {
    try {
      task.run();
    } catch (RuntimeException e) {
      LOG.log(Level.SEVERE, "partition " + partition + ": task failed", e);
    }
  }

  /** The next task, spinning then parking while the queue is empty; null when interrupted. */
  private Runnable awaitTask() {
    for (int spins = 0; ; spins++) {
      final Runnable task = queue.relaxedPoll();
      if (task != null) {
        return task;
      }
      if (spins < IDLE_SPINS) {
        Thread.onSpinWait();
        continue;
      }
      parked = true;
      final Runnable late = queue.relaxedPoll();
      if (late != null) {
        parked = false;
        return late;
      }
      LockSupport.parkNanos(this, MAX_PARK_NANOS);
      parked = false;
      if (Thread.currentThread().isInterrupted()) {
        return null;
      }
    }
  }
}

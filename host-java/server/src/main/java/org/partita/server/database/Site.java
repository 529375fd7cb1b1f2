package org.partita.server.database;

import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.partita.server.compiler.CompiledProcedure;
import org.partita.server.engine.PartitionEngine;

/**
 * One partition: a thread that owns the partition's engine and runs tasks
 * from its queue one after another to completion. Everything the engine
 * touches happens on this thread.
 */
final class Site implements Runnable {
  private static final Logger LOG = Logger.getLogger(Site.class.getName());
  private static final Runnable STOP = () -> { };

  private final int partition;
  private final int partitionCount;
  private final byte[] initialCatalog;
  private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
  private final CountDownLatch opened = new CountDownLatch(1);
  private final Thread thread;
  private volatile RuntimeException openFailure;
  // Site-confined state.
  private PartitionEngine engine;
  private final Map<CompiledProcedure, ProcedureInstance> instances = new IdentityHashMap<>();
  private SinglePartitionContext context;

  Site(int partition, int partitionCount, byte[] catalog) {
    this.partition = partition;
    this.partitionCount = partitionCount;
    this.initialCatalog = catalog;
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

  void submit(Runnable task) {
    queue.add(task);
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

  /** Stops after the tasks already queued; waits for the thread. */
  void stop() throws InterruptedException {
    queue.add(STOP);
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
      for (Runnable task = take(); task != STOP; task = take()) {
        try {
          task.run();
        } catch (RuntimeException e) {
          LOG.log(Level.SEVERE, "partition " + partition + ": task failed", e);
        }
      }
    } finally {
      engine.close();
    }
  }

  private Runnable take() {
    try {
      return queue.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return STOP;
    }
  }
}

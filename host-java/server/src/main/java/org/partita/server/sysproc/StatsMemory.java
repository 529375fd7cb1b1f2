package org.partita.server.sysproc;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.List;
import org.partita.client.ClientResponse;
import org.partita.client.ResultTableBuilder;
import org.partita.client.ValueType;
import org.partita.proto.TableStats;
import org.partita.proto.TableStatsList;
import org.partita.server.database.Database;
import org.partita.server.dispatch.ResponseHandler;

/**
 * {@code @Statistics MEMORY}: one row: the JVM heap, direct memory, and the
 * engine's table and index memory summed over every partition. Figures the
 * runtime does not report are -1.
 */
final class StatsMemory implements StatisticsSelector {
  private final Database database;

  StatsMemory(Database database) {
    this.database = database;
  }

  @Override
  public boolean answer(boolean interval, ResponseHandler handler) {
    return EngineTableStats.offer(database, "@Statistics MEMORY", this::table, handler);
  }

  private ClientResponse table(List<TableStatsList> partitions) {
    long rows = 0;
    long used = 0;
    long allocated = 0;
    long indexes = 0;
    for (TableStatsList partition : partitions) {
      for (TableStats t : partition.getTablesList()) {
        rows += t.getRowCount();
        used += t.getBytesUsed();
        allocated += t.getBytesAllocated();
        indexes += t.getIndexBytes();
      }
    }
    final MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    return Answers.table(new ResultTableBuilder()
        .column("HEAP_USED", ValueType.BIGINT)
        .column("HEAP_COMMITTED", ValueType.BIGINT)
        .column("HEAP_MAX", ValueType.BIGINT)
        .column("DIRECT_USED", ValueType.BIGINT)
        .column("NETTY_DIRECT_USED", ValueType.BIGINT)
        .column("ENGINE_ROWS", ValueType.BIGINT)
        .column("ENGINE_BYTES_USED", ValueType.BIGINT)
        .column("ENGINE_BYTES_ALLOCATED", ValueType.BIGINT)
        .column("ENGINE_INDEX_BYTES", ValueType.BIGINT)
        .row(heap.getUsed(), heap.getCommitted(), heap.getMax(), directUsed(),
            io.netty.util.internal.PlatformDependent.usedDirectMemory(), rows, used, allocated, indexes)
        .build());
  }

  /** Bytes of the JVM's "direct" buffer pool (ByteBuffer.allocateDirect), or -1. */
  private static long directUsed() {
    for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
      if (pool.getName().equals("direct")) {
        return pool.getMemoryUsed();
      }
    }
    return -1;
  }
}

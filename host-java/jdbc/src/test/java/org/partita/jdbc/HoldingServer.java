package org.partita.jdbc;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.partita.client.proto.CallStatus;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.HashSpecification;
import org.partita.client.proto.Host;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.LoginStatus;
import org.partita.client.proto.ServerMessage;
import org.partita.client.proto.Topology;

/**
 * A one-connection stand-in for a server that answers no call until
 * {@code hold} calls have arrived, then answers them all SUCCESS (no
 * table): a client that waits for an answer before sending its next call
 * never gets one. Runs on its own daemon thread; {@link #close} ends it.
 */
final class HoldingServer implements AutoCloseable {
  private final ServerSocket socket;
  private final int hold;
  private final List<String> procedures = new ArrayList<>();

  HoldingServer(int hold) throws IOException {
    this.hold = hold;
    this.socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    final Thread thread = new Thread(this::serve, "holding-server");
    thread.setDaemon(true);
    thread.start();
  }

  String address() {
    return "127.0.0.1:" + socket.getLocalPort();
  }

  /** The procedures called so far, in arrival order. */
  synchronized List<String> procedures() {
    return List.copyOf(procedures);
  }

  private void serve() {
    try (Socket client = socket.accept();
        DataInputStream in = new DataInputStream(new BufferedInputStream(client.getInputStream()));
        DataOutputStream out = new DataOutputStream(client.getOutputStream())) {
      read(in);
      write(out, ServerMessage.newBuilder().setLogin(login()).build());
      final List<Invocation> held = new ArrayList<>();
      while (held.size() < hold) {
        final Invocation call = read(in).getInvocation();
        synchronized (this) {
          procedures.add(call.getProcedure());
        }
        held.add(call);
      }
      for (Invocation call : held) {
        write(out, ServerMessage.newBuilder().setResponse(InvocationResponse.newBuilder()
            .setClientHandle(call.getClientHandle()).setStatus(CallStatus.CALL_STATUS_SUCCESS).setCatalogVersion(1))
            .build());
      }
      while (true) {
        read(in);
      }
    } catch (IOException e) {
      // the client closed, or close() did
    }
  }

  private static LoginResponse login() {
    return LoginResponse.newBuilder().setStatus(LoginStatus.LOGIN_STATUS_OK).setProtocolVersion(1).setHostId(0)
        .setConnectionId(1).setTopology(Topology.newBuilder().setPartitionCount(1)
            .addHosts(Host.newBuilder().setHostId(0).setAddress("127.0.0.1").setClientPort(21212))
            .addPartitionLeaders(0))
        .setHash(HashSpecification.newBuilder().setAlgorithm("fnv1a64-fmix64").setBucketBits(14))
        .setCatalogVersion(1).setServerVersion("holding").setMaxFrameBytes(1 << 20).build();
  }

  private static ClientMessage read(DataInputStream in) throws IOException {
    final byte[] body = new byte[in.readInt()];
    in.readFully(body);
    return ClientMessage.parseFrom(body);
  }

  private static void write(DataOutputStream out, ServerMessage message) throws IOException {
    final byte[] body = message.toByteArray();
    out.writeInt(body.length);
    out.write(body);
    out.flush();
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}

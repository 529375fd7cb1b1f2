package org.partita.client;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.HashSpecification;
import org.partita.client.proto.Host;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.InvocationResponse;
import org.partita.client.proto.LoginRequest;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.LoginStatus;
import org.partita.client.proto.ProcedureRouting;
import org.partita.client.proto.ServerMessage;
import org.partita.client.proto.Topology;

/**
 * A stand-in Partita server for client tests: plain blocking sockets on
 * 127.0.0.1, one reader thread per connection, speaking the frames of
 * proto/client.proto. It answers the login with {@link #login} and hands
 * each invocation to {@link #onInvocation} (default: answer SUCCESS with no
 * table); every invocation is also queued in {@link #received}.
 */
final class FakeServer implements AutoCloseable {
  /** One invocation as the server read it, with the session it came on. */
  record Received(Session session, Invocation invocation) {}

  final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
  final List<LoginRequest> logins = new CopyOnWriteArrayList<>();
  final List<Session> sessions = new CopyOnWriteArrayList<>();
  volatile LoginResponse login;
  volatile BiConsumer<Session, Invocation> onInvocation = (s, inv) -> s.respond(success(inv.getClientHandle()));
  private volatile ServerSocket socket;
  private volatile Thread acceptor;

  FakeServer(LoginResponse login) {
    this.login = login;
  }

  /** A server that is host {@code hostId} of a single-host, one-partition cluster. */
  static FakeServer started() throws IOException {
    final FakeServer s = new FakeServer(loginResponse(0, 1, List.of(0), List.of()));
    s.start(0);
    return s;
  }

  /** An OK login answer: host {@code hostId}, {@code partitions} partitions led by {@code leaders}. */
  static LoginResponse loginResponse(int hostId, int partitions, List<Integer> leaders, List<ProcedureRouting> routes) {
    return LoginResponse.newBuilder().setStatus(LoginStatus.LOGIN_STATUS_OK).setProtocolVersion(1).setHostId(hostId)
        .setConnectionId(7).setTopology(Topology.newBuilder().setPartitionCount(partitions)
            .addHosts(Host.newBuilder().setHostId(hostId).setAddress("127.0.0.1").setClientPort(21212))
            .addAllPartitionLeaders(leaders))
        .setHash(HashSpecification.newBuilder().setAlgorithm("fnv1a64-fmix64").setBucketBits(14))
        .addAllProcedures(routes).setCatalogVersion(1).setServerVersion("fake").setMaxFrameBytes(1 << 20).build();
  }

  static InvocationResponse.Builder success(long handle) {
    return InvocationResponse.newBuilder().setClientHandle(handle)
        .setStatus(org.partita.client.proto.CallStatus.CALL_STATUS_SUCCESS).setCatalogVersion(1);
  }

  /** Listens on {@code port} (0: any free port) of 127.0.0.1. */
  void start(int port) throws IOException {
    final ServerSocket s = new ServerSocket();
    s.setReuseAddress(true);
    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
    socket = s;
    final Thread t = new Thread(() -> accept(s), "fake-server-accept");
    t.setDaemon(true);
    t.start();
    acceptor = t;
  }

  int port() {
    return socket.getLocalPort();
  }

  String address() {
    return "127.0.0.1:" + port();
  }

  /** The next invocation received, waiting up to 5 s. */
  Received next() throws InterruptedException {
    final Received r = received.poll(5, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("no invocation arrived within 5 s");
    }
    return r;
  }

  /** Closes every client connection, keeps listening. */
  void dropConnections() {
    sessions.forEach(Session::close);
    sessions.clear();
  }

  /** Stops listening and closes every connection. */
  @Override
  public void close() throws IOException {
    final ServerSocket s = socket;
    if (s != null) {
      s.close();
    }
    dropConnections();
    final Thread t = acceptor;
    if (t != null) {
      try {
        t.join(2000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private void accept(ServerSocket s) {
    while (!s.isClosed()) {
      try {
        final Socket client = s.accept();
        client.setTcpNoDelay(true);
        final Session session = new Session(client);
        sessions.add(session);
        final Thread reader = new Thread(session::read, "fake-server-session");
        reader.setDaemon(true);
        reader.start();
      } catch (IOException e) {
        return;
      }
    }
  }

  /** One client connection. Writes are synchronized; reads happen on its own thread. */
  final class Session {
    private final Socket socket;
    private final DataOutputStream out;

    Session(Socket socket) throws IOException {
      this.socket = socket;
      this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    void respond(InvocationResponse.Builder response) {
      send(ServerMessage.newBuilder().setResponse(response).build().toByteArray());
    }

    /** Sends one frame with {@code payload} as its body. */
    synchronized void send(byte[] payload) {
      try {
        out.writeInt(payload.length);
        out.write(payload);
        out.flush();
      } catch (IOException e) {
        close();
      }
    }

    void close() {
      try {
        socket.close();
      } catch (IOException e) {
        // already closed
      }
    }

    private void read() {
      try (DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()))) {
        final ClientMessage first = readMessage(in);
        logins.add(first.getLogin());
        final LoginResponse answer = login;
        send(ServerMessage.newBuilder().setLogin(answer).build().toByteArray());
        if (answer.getStatus() != LoginStatus.LOGIN_STATUS_OK) {
          close();
          return;
        }
        while (true) {
          final Invocation invocation = readMessage(in).getInvocation();
          received.add(new Received(this, invocation));
          onInvocation.accept(this, invocation);
        }
      } catch (EOFException | SocketException e) {
        close();
      } catch (IOException e) {
        throw new AssertionError("fake server read failed", e);
      }
    }

    private ClientMessage readMessage(DataInputStream in) throws IOException {
      final int length = in.readInt();
      final byte[] body = new byte[length];
      in.readFully(body);
      return ClientMessage.parseFrom(body);
    }
  }
}

package org.partita.server.network;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import org.partita.client.proto.ClientMessage;
import org.partita.client.proto.Invocation;
import org.partita.client.proto.LoginRequest;
import org.partita.client.proto.LoginResponse;
import org.partita.client.proto.Parameter;
import org.partita.client.proto.ServerMessage;

/** A blocking test client that speaks raw frames of proto/client.proto. */
final class FrameSocket implements AutoCloseable {
  private final Socket socket = new Socket();
  private final DataOutputStream out;
  private final DataInputStream in;

  FrameSocket(int port) throws IOException {
    socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
    socket.setSoTimeout(10_000);
    socket.setTcpNoDelay(true);
    out = new DataOutputStream(socket.getOutputStream());
    in = new DataInputStream(socket.getInputStream());
  }

  static FrameSocket loggedIn(int port) throws IOException {
    final FrameSocket s = new FrameSocket(port);
    final LoginResponse login = s.login(1);
    if (!login.getStatus().name().endsWith("OK")) {
      throw new IOException("login failed: " + login);
    }
    return s;
  }

  LoginResponse login(int version) throws IOException {
    send(ClientMessage.newBuilder().setLogin(LoginRequest.newBuilder().setProtocolVersion(version)
        .setClientName("test")).build());
    return receive().getLogin();
  }

  void call(long handle, String procedure, Object... params) throws IOException {
    final Invocation.Builder b = Invocation.newBuilder().setClientHandle(handle).setProcedure(procedure);
    for (Object p : params) {
      final Parameter.Builder pb = Parameter.newBuilder();
      if (p instanceof Long l) {
        pb.setInteger(l);
      } else if (p instanceof String s) {
        pb.setText(s);
      } else if (p != null) {
        throw new IllegalArgumentException("test helper takes Long and String only");
      }
      b.addParameters(pb);
    }
    send(ClientMessage.newBuilder().setInvocation(b).build());
  }

  void send(ClientMessage message) throws IOException {
    final byte[] bytes = message.toByteArray();
    out.writeInt(bytes.length);
    out.write(bytes);
    out.flush();
  }

  void sendRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  ServerMessage receive() throws IOException {
    final int size = in.readInt();
    final byte[] bytes = new byte[size];
    in.readFully(bytes);
    return ServerMessage.parseFrom(bytes);
  }

  /** True iff the server closed the connection (EOF or reset) within the socket timeout. */
  boolean closedByServer() throws IOException {
    try {
      while (true) {
        if (in.read() < 0) {
          return true;
        }
      }
    } catch (EOFException | java.net.SocketException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}

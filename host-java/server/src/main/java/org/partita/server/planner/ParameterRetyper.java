package org.partita.server.planner;

import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import java.util.List;
import java.util.Map;
import org.partita.proto.Expression;
import org.partita.proto.PlanNode;
import org.partita.proto.ValueType;

/**
 * Sets the final inferred type on every PARAMETER expression of a plan
 * (a parameter bound before its type was known carries UNSPECIFIED).
 */
final class ParameterRetyper {
  private ParameterRetyper() {}

  static PlanNode retype(PlanNode plan, List<ValueType> types) {
    return (PlanNode) rewrite(plan, types);
  }

  @SuppressWarnings("unchecked")
  private static Message rewrite(Message message, List<ValueType> types) {
    if (message instanceof Expression e) {
      return Exprs.retypeParameters(e, types);
    }
    Message.Builder builder = null;
    for (Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
      final FieldDescriptor fd = field.getKey();
      if (fd.getJavaType() != FieldDescriptor.JavaType.MESSAGE) {
        continue;
      }
      if (builder == null) {
        builder = message.toBuilder();
      }
      if (fd.isRepeated()) {
        final List<Message> items = (List<Message>) field.getValue();
        builder.clearField(fd);
        for (Message item : items) {
          builder.addRepeatedField(fd, rewrite(item, types));
        }
      } else {
        builder.setField(fd, rewrite((Message) field.getValue(), types));
      }
    }
    return builder == null ? message : builder.build();
  }
}

import protobuf from 'protobufjs';

// Prometheus remote write 1.0's messages (prompb/remote.proto and prompb/types.proto of the
// Prometheus project, the fields a writer sends), read by protobufjs, which encodes them.
// Histogram is a native histogram: exponential buckets of schema n (bounds 2^(i * 2^-n)),
// positive buckets as spans of consecutive indexes and their counts as deltas.
const PROTO = `
syntax = "proto3";
package prometheus;
message WriteRequest { repeated TimeSeries timeseries = 1; reserved 2; }
message TimeSeries { repeated Label labels = 1; repeated Sample samples = 2; repeated Histogram histograms = 4; }
message Label { string name = 1; string value = 2; }
message Sample { double value = 1; int64 timestamp = 2; }
message BucketSpan { sint32 offset = 1; uint32 length = 2; }
message Histogram {
  oneof count { uint64 count_int = 1; double count_float = 2; }
  double sum = 3;
  sint32 schema = 4;
  double zero_threshold = 5;
  oneof zero_count { uint64 zero_count_int = 6; double zero_count_float = 7; }
  repeated BucketSpan negative_spans = 8;
  repeated sint64 negative_deltas = 9;
  repeated BucketSpan positive_spans = 11;
  repeated sint64 positive_deltas = 12;
  enum ResetHint { UNKNOWN = 0; YES = 1; NO = 2; GAUGE = 3; }
  ResetHint reset_hint = 14;
  int64 timestamp = 15;
}
`;

export const WriteRequest = protobuf.parse(PROTO, { keepCase: true }).root.lookupType('prometheus.WriteRequest');

export interface PromSeries {
  labels: { name: string; value: string }[];
  samples?: { value: number; timestamp: number }[];
  histograms?: {
    count_int: number;
    sum: number;
    schema: number;
    zero_threshold: number;
    zero_count_int: number;
    positive_spans: { offset: number; length: number }[];
    positive_deltas: number[];
    timestamp: number;
  }[];
}

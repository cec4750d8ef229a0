import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { KitError } from '../../ground/errors.ts';
import type { ResultStore } from './result-store.ts';

// An S3-compatible bucket as a result store, through the AWS SDK. Credentials, region and
// endpoint come from the SDK's usual environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN, AWS_PROFILE, AWS_REGION; AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL for a
// server other than AWS, which is then addressed path-style as MinIO, Ceph and the like expect).

export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!m) throw new KitError(`--out s3://bucket/prefix: "${url}" names no valid bucket`);
  return { bucket: m[1]!, prefix: (m[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

export function s3Store(url: string, env: NodeJS.ProcessEnv = process.env): ResultStore {
  const { bucket, prefix } = parseS3Url(url);
  const endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  // Keys from these variables; without them the SDK's own chain (AWS_PROFILE, a pod's web identity...).
  const credentials = env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, sessionToken: env.AWS_SESSION_TOKEN } : undefined;
  const client = new S3Client({ region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? 'us-east-1', ...(credentials ? { credentials } : {}), ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
  const key = (name: string) => (prefix ? `${prefix}/${name}` : name);
  const where = `s3://${bucket}${prefix ? `/${prefix}` : ''}`;
  const fail = (what: string, name: string, e: unknown): never => {
    throw new KitError(`${what} ${where}/${name}: ${(e as Error).name === 'Error' ? '' : `${(e as Error).name}: `}${(e as Error).message}`);
  };
  return {
    where,
    async put(name, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key(name), Body: body })).catch((e: unknown) => fail('cannot write', name, e));
    },
    async get(name) {
      try {
        const r = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key(name) }));
        return await r.Body!.transformToString('utf8');
      } catch (e) {
        if ((e as Error).name === 'NoSuchKey' || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return undefined;
        return fail('cannot read', name, e);
      }
    },
    async remove(name) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key(name) })).catch(() => {});
    },
    locate: (name) => `${where}/${name}`,
  };
}

import { useQuery } from '@tanstack/react-query';
import { opconfig, type ResponseOf } from '@lynx/contract';
import { call } from '../../../request/http.ts';

export type PlatformEntry = ResponseOf<typeof opconfig.getPlatformPage>['list'][number];
export type PlatformSchemaResponse = ResponseOf<typeof opconfig.getPlatformSchema>;
export type SchemaField = PlatformSchemaResponse['fields'][number];

/** The field schema of a platform type, from the server (the same schema the server validates against). */
export function usePlatformSchema(platformType: number, enabled = true) {
  return useQuery({
    queryKey: [opconfig.getPlatformSchema.name, platformType],
    queryFn: ({ signal }) => call(opconfig.getPlatformSchema, { platformType }, { signal, silent: true }),
    enabled: enabled && Number.isInteger(platformType) && platformType > 0,
    staleTime: Infinity,
  });
}

/**
 * Timezones of the workspaces the kit creates: UTC and zones far from it (+14:00, -03:30,
 * +05:45), so a check or a target that assumes UTC days shows it.
 */
export const POOL_ZONES = ['UTC', 'Pacific/Kiritimati', 'America/St_Johns', 'Asia/Kathmandu'] as const;

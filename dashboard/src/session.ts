// Where the pasted API key lives: sessionStorage only (gone when the tab closes), never a URL, a
// cookie or localStorage, and never logged. Sign-out removes it.

const KEY_NAME = 'generation-service.api-key';

export const readStoredKey = (): string | undefined => sessionStorage.getItem(KEY_NAME) ?? undefined;

export const storeKey = (secret: string): void => sessionStorage.setItem(KEY_NAME, secret);

export const forgetKey = (): void => sessionStorage.removeItem(KEY_NAME);

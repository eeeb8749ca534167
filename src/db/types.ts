import { ArrayType } from '@mikro-orm/core';

/** A PostgreSQL integer array (`int[]`, `smallint[]`, `bigint[]`) hydrated as numbers. */
export const numberArray = new ArrayType<number>((item) => Number(item));

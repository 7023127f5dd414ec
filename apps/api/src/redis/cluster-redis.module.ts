import { Module } from '@nestjs/common';
import { ClusterRedis } from './cluster-redis';

/** This process's Redis connections among its peers (one instance, whoever imports it). */
@Module({ providers: [ClusterRedis], exports: [ClusterRedis] })
export class ClusterRedisModule {}
